/**
 * Percent-encoding that is not UTF-8 is a 400 naming the parameter, not a question about another
 * group: `/groups/%ff` is not the group `%ff` (that one is `/groups/%25ff`), which still round-trips.
 * The group service is a stand-in that names the group it was asked about.
 */

import { describe, expect, it } from 'vitest';
import { standInApp } from '../support/stand-in-app.js';

const asked: string[] = [];
const app = standInApp({
  describeGroup: async (groupId: string) => {
    asked.push(groupId);
    return { groupId, type: 'classic', state: 'Empty', members: [] };
  },
});

describe('percent-encoding that is not UTF-8', () => {
  it.each([
    ['/groups/%ff%fe', 'groupId', '%ff%fe'],
    ['/groups/%c0%80/health', 'groupId', '%c0%80'],
    ['/clusters/default/groups/a%e2%82/diagnosis', 'groupId', 'a%e2%82'],
  ])('%s is a 400 naming %s', async (path, name, received) => {
    const res = await app.request(path);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await res.json()) as { type: string; errors: unknown[] };
    expect(problem.type).toBe('/problems/invalid-input');
    expect(problem.errors[0]).toMatchObject({ in: 'path', name, received });
  });

  it('a query value is a 400 naming its parameter', async () => {
    const res = await app.request('/groups?prefix=%ff');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: unknown[] }).errors[0]).toMatchObject({
      in: 'query',
      name: 'prefix',
      received: '%ff',
    });
  });

  it('the group named %ff is still asked for as /groups/%25ff, and only then', async () => {
    asked.length = 0;
    expect((await app.request('/groups/%ff')).status).toBe(400);
    expect(asked).toEqual([]);
    const res = await app.request('/groups/%25ff');
    expect(res.status).toBe(200);
    expect(asked).toEqual(['%ff']);
  });
});
