/**
 * GET /topics/{topic}/groups?sort=lag with a cursor: refused naming the cursor, as limit and sort
 * are with the ndjson stream. A cursor walks the groupId order; the lag order is one page. No
 * broker: the query is refused before the service, which throws if called.
 */

import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { GroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';
import { createLogger } from '../../src/logger.js';
import { encodeCursor } from '../../src/routes/paging.js';

const unreached = new Proxy(
  {},
  {
    get: (_target, name) => () => {
      throw new Error(`the service was called: ${String(name)}`);
    },
  },
) as GroupService;
const config = loadConfig({ AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' });
const app = createApp({ service: unreached, security: securityFrom(config), logger: createLogger('silent') });

describe('GET /topics/{topic}/groups: sort=lag and a cursor', () => {
  it('400 invalid-input naming the cursor', async () => {
    const cursor = encodeCursor('orders-eu');
    const res = await app.request(`/topics/demo-events/groups?sort=lag&cursor=${encodeURIComponent(cursor)}`);
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { type: string; errors: unknown[] };
    expect(problem.type).toBe('/problems/invalid-input');
    expect(problem.errors).toEqual([
      expect.objectContaining({
        in: 'query',
        name: 'cursor',
        expected: 'absent with sort=lag',
        received: cursor,
      }),
    ]);
  });
});
