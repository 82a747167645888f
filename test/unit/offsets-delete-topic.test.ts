/**
 * DELETE /groups/{groupId}/offsets?topic=… checks the topic as every other topic the API takes
 * (/topics/{topic}/groups, ?topic= on the listing): Kafka's 249 characters of a-z, A-Z, 0-9, '.',
 * '_', '-'. No broker: a topic refused never reaches the service, which rejects if called.
 */

import { describe, expect, it } from 'vitest';
import { standInApp } from '../support/stand-in-app.js';

// Every service method rejects: a request that reaches the service answers 500, not the 400 expected.
const app = standInApp({}, { WRITES: 'enabled' });

describe("DELETE /groups/{groupId}/offsets: the 'topic' parameter", () => {
  it.each([
    ['250 characters', 'a'.repeat(250)],
    ['a character Kafka refuses', 'orders/eu'],
    ['a space', 'orders eu'],
    ['empty', ''],
  ])('%s: 400 invalid-input naming the parameter', async (_name, topic) => {
    const res = await app.request(`/groups/g1/offsets?type=classic&topic=${encodeURIComponent(topic)}`, {
      method: 'DELETE',
    });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as {
      type: string;
      errors: { in: string; name: string; expected: string }[];
    };
    expect(problem.type).toBe('/problems/invalid-input');
    expect(problem.errors).toContainEqual(
      expect.objectContaining({
        in: 'query',
        name: 'topic',
        expected: "a topic name: 1 to 249 of a-z, A-Z, 0-9, '.', '_', '-'",
      }),
    );
  });
});
