/**
 * A reset's `shiftBy` beyond what a JSON number holds exactly (2^53 - 1 either way) is refused
 * naming the bound, not as "an integer" it plainly is. No broker: the body is refused before the
 * service, which throws if called.
 */

import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { GroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';
import { createLogger } from '../../src/logger.js';

const unreached = new Proxy(
  {},
  {
    get: (_target, name) => () => {
      throw new Error(`the service was called: ${String(name)}`);
    },
  },
) as GroupService;
const config = loadConfig({ AUTH: 'none', WRITES: 'enabled', RATE_LIMIT_PER_MINUTE: '0' });
const app = createApp({ service: unreached, security: securityFrom(config), logger: createLogger('silent') });
const RULE = 'an integer from -(2^53 - 1) to 2^53 - 1';

describe("POST /groups/{groupId}/offsets/reset: 'shiftBy'", () => {
  it.each([
    ['2^53', '9007199254740992'],
    ['-2^53', '-9007199254740992'],
    ['1e300', '1e300'],
    ['a fraction', '1.5'],
  ])('%s: 400 naming the bound', async (_name, literal) => {
    const res = await app.request('/groups/g1/offsets/reset', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"type":"classic","scenario":"shift-by","shiftBy":${literal},"allTopics":true}`,
    });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { type: string; errors: { name: string; expected: string }[] };
    expect(problem.type).toBe('/problems/invalid-input');
    expect(problem.errors).toContainEqual(expect.objectContaining({ name: 'shiftBy', expected: RULE }));
  });
});
