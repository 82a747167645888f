/**
 * GET /topics/{topic}/groups?sort=lag with a cursor: refused naming the cursor, as limit and sort
 * are with the ndjson stream. A cursor walks the groupId order; the lag order is one page. No
 * broker: the query is refused before the service, which rejects if called.
 */

import { describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/routes/paging.js';
import { standInApp } from '../support/stand-in-app.js';

// Every service method rejects: a request that reaches the service answers 500, not the 400 expected.
const app = standInApp();

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
