/**
 * GET /groups/{groupId} with input valid on its face (no query or just ?type=, a short id) is answered without
 * the validators (routes/groups.ts `plainDescribe`); everything else goes through them. Either
 * way the service is asked the same thing and a bad input gets the same 400. The group service
 * is a stand-in that records what it was asked.
 */

import { describe, expect, it } from 'vitest';
import { MAX_GROUP_ID_BYTES } from '../../src/openapi/shapes/scalars.js';
import { standInApp } from '../support/stand-in-app.js';

const asked: Array<{ groupId: string; expected: unknown }> = [];
const app = standInApp({
  describeGroup: async (groupId: string, options?: { expected?: string }) => {
    asked.push({ groupId, expected: options?.expected });
    return {
      type: 'classic',
      groupId,
      state: 'Empty',
      protocolType: '',
      assignor: null,
      groupEpoch: null,
      assignmentEpoch: null,
      coordinator: { nodeId: 1, host: 'stand-in', port: 9092 },
      members: [],
    };
  },
});

async function describeOf(path: string) {
  asked.length = 0;
  const res = await app.request(path);
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, asked: [...asked] };
}

/** The longest id the shortcut takes (3 UTF-8 bytes per UTF-16 unit at most), and one more. */
const SHORTCUT_MAX = Math.floor(MAX_GROUP_ID_BYTES / 3);

describe('describe input (stand-in service)', () => {
  it.each([
    ['/groups/g1', 'g1'],
    ['/groups/a%2Fb%20c', 'a/b c'],
    ['/groups/%E2%82%AC', '€'],
    ['/clusters/default/groups/g1', 'g1'],
    [`/groups/${'x'.repeat(SHORTCUT_MAX)}`, 'x'.repeat(SHORTCUT_MAX)],
    [`/groups/${'x'.repeat(SHORTCUT_MAX + 1)}`, 'x'.repeat(SHORTCUT_MAX + 1)],
    [`/groups/${'x'.repeat(MAX_GROUP_ID_BYTES)}`, 'x'.repeat(MAX_GROUP_ID_BYTES)],
    ['/groups/g1?', 'g1'],
    // A fragment is not the query, whatever it holds.
    ['/groups/g1#?type=classic', 'g1'],
    ['/clusters/default/groups/g1#?type=share', 'g1'],
  ])('%s describes the group as routed, no type asserted', async (path, groupId) => {
    const { status, body, asked } = await describeOf(path);
    expect(status).toBe(200);
    expect(body.groupId).toBe(groupId);
    expect(asked).toEqual([{ groupId, expected: undefined }]);
  });

  it.each([
    ['/groups/g1?type=classic', 'classic'],
    ['/groups/g1?type=streams', 'streams'],
    ['/groups/g1?type=share&type=share', undefined],
    ['/groups/g1?type=%63onsumer', 'consumer'],
    ['/groups/g1?include=topology&type=consumer', 'consumer'],
    ['/clusters/default/groups/g1?type=share', 'share'],
  ])('%s passes ?type= on as the expected type', async (path, expected) => {
    const { status, asked } = await describeOf(path);
    if (expected === undefined) {
      expect(status).toBe(400);
      expect(asked).toEqual([]);
      return;
    }
    expect(status).toBe(200);
    expect(asked).toEqual([{ groupId: 'g1', expected }]);
  });

  it.each([
    [`/groups/${'x'.repeat(MAX_GROUP_ID_BYTES + 1)}`, 'path', 'groupId'],
    [`/groups/${'%E2%82%AC'.repeat(SHORTCUT_MAX + 1)}`, 'path', 'groupId'],
    ['/groups/g1?type=bogus', 'query', 'type'],
    ['/groups/g1?type=Classic', 'query', 'type'],
    ['/groups/g1?type=', 'query', 'type'],
    ['/groups/g1?include=nothing', 'query', 'include'],
    ['/groups/g1?unknown=1', 'query', 'unknown'],
  ])('%s is a 400 naming the parameter, before any broker call', async (path, where, name) => {
    const { status, body, asked } = await describeOf(path);
    expect(status).toBe(400);
    expect(body.type).toMatch(/invalid-input$/);
    expect(body.errors).toEqual([expect.objectContaining({ in: where, name })]);
    expect(asked).toEqual([]);
  });
});
