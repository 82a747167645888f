/**
 * Static members (KIP-345) restarted with the same group.instance.id appear once, with their new
 * member id (KAFKA-12363), for classic and consumer groups alike.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GroupSpec, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { type TestApp, testApp } from '../support/app.js';

const run = uniqueName('st');
const topic = `${run}-in`;
const specs: GroupSpec[] = [
  { type: 'classic', groupId: `${run}-classic`, topics: [topic], instanceIdPrefix: `${run}-ci` },
  { type: 'consumer', groupId: `${run}-consumer`, topics: [topic], instanceIdPrefix: `${run}-ki` },
];

let t: TestApp;

beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t?.close();
});

type Member = { memberId: string; instanceId: string | null };
const members = async (groupId: string): Promise<Member[]> => {
  const { status, body } = await t.get<{ members: Member[] }>(
    `/groups/${encodeURIComponent(groupId)}`,
    '/groups/{groupId}',
  );
  expect(status).toBe(200);
  return body.members;
};
const instanceOf = (m: Member) => m.instanceId;

describe('a static member that restarts', () => {
  it('is listed once, with its new member id', async () => {
    const first = await startFixtures({
      bootstrap: t.bootstrap,
      topics: [{ name: topic, partitions: 2, records: 0 }],
      groups: specs,
    });
    const before = new Map<string, Member[]>();
    try {
      for (const spec of specs) before.set(spec.groupId, await members(spec.groupId));
    } finally {
      await first.stop();
    }
    const second = await startFixtures({ bootstrap: t.bootstrap, groups: specs });
    try {
      for (const spec of specs) {
        const old = before.get(spec.groupId) ?? [];
        expect(old.map(instanceOf), spec.type).toEqual([
          `${spec.type === 'classic' ? `${run}-ci` : `${run}-ki`}-0`,
        ]);
        const now = await members(spec.groupId);
        expect(now.map(instanceOf), spec.type).toEqual(old.map(instanceOf));
        expect(now[0]?.memberId, spec.type).not.toBe(old[0]?.memberId);
      }
    } finally {
      await second.stop();
    }
    // Two rounds of Java clients (start, join, stop): a loaded machine needs more than the default.
  }, 180_000);
});
