/**
 * A reset's `shiftBy` beyond what a JSON number holds exactly (2^53 - 1 either way) is refused
 * naming the bound, not as "an integer" it plainly is. No broker: the body is refused before the
 * service, which rejects if called.
 */

import { describe, expect, it } from 'vitest';
import { standInApp } from '../support/stand-in-app.js';

// Every service method rejects: a request that reaches the service answers 500, not the 400 expected.
const app = standInApp({}, { WRITES: 'enabled' });
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
