/**
 * One rule for lag totals: `GET /groups?include=lag` gives every group the same `lag` object as the
 * `totals` of `GET /groups/{groupId}/offsets`, partitions its members hold without a commit included
 * (counted in `partitions` and `partitionsWithoutOffset`, no lag invented). Real groups of every type
 * made by Kafka's own clients, some that never commit.
 */

import { describe, expect, it } from 'vitest';
import type { GroupSpec } from '../broker-harness/fixtures.js';
import { uniqueName } from '../broker-harness/fixtures.js';
import { waitFor } from '../broker-harness/wait.js';
import { appWithGroups } from '../support/app-with-groups.js';
import { hasGroupType } from '../support/kafka-version.js';

const run = uniqueName('lagrule');
const topic = `${run}-events`;
const ids = {
  classicNoCommit: `${run}-classic-nocommit`,
  consumerNoCommit: `${run}-consumer-nocommit`,
  consumerCommitted: `${run}-consumer-committed`,
  empty: `${run}-empty`,
  share: `${run}-share`,
  streams: `${run}-streams`,
};

const t = appWithGroups({
  topics: [{ name: topic, partitions: 3, records: 5 }],
  groups: () => {
    const groups: GroupSpec[] = [
      { type: 'classic', groupId: ids.classicNoCommit, topics: [topic], clientId: `${run}-cl` },
      { type: 'consumer', groupId: ids.consumerNoCommit, topics: [topic], clientId: `${run}-cn` },
      { type: 'consumer', groupId: ids.consumerCommitted, topics: [topic], clientId: `${run}-cc`, commit: 2 },
      { type: 'empty', groupId: ids.empty, topics: [topic], commit: 1 },
    ];
    if (hasGroupType('share')) groups.push({ type: 'share', groupId: ids.share, topics: [topic] });
    if (hasGroupType('streams')) groups.push({ type: 'streams', groupId: ids.streams, topics: [topic] });
    return groups;
  },
  readyTimeoutMs: 300_000,
  timeoutMs: 360_000,
});

type Totals = {
  lag: number;
  partitions: number;
  partitionsWithoutOffset: number;
  partitionsWithErrors: number;
};
type Page = { groups: { groupId: string; lag?: Totals; lagError?: unknown }[] };

/** The listing's lag and each group's /offsets totals, read back to back. */
async function both(): Promise<{ listed: Map<string, Totals | undefined>; offsets: Map<string, Totals> }> {
  const page = await t.get<Page>(`/groups?prefix=${run}&include=lag`, '/groups');
  expect(page.status).toBe(200);
  const listed = new Map(page.body.groups.map((g) => [g.groupId, g.lag]));
  const offsets = new Map<string, Totals>();
  for (const id of listed.keys()) {
    const res = await t.get<{ totals: Totals }>(
      `/groups/${encodeURIComponent(id)}/offsets`,
      '/groups/{groupId}/offsets',
    );
    expect(res.status).toBe(200);
    offsets.set(id, res.body.totals);
  }
  return { listed, offsets };
}

describe('include=lag and /offsets', () => {
  it('give every group the same totals, partitions held without a commit included', {
    timeout: 120_000,
  }, async () => {
    // Share and streams consumers may still move their offsets right after start: compare until the
    // two reads agree (or the bound runs out and the last difference is the failure).
    let seen: Awaited<ReturnType<typeof both>> | undefined;
    const last = await waitFor(
      async () => {
        const read = await both();
        seen = read;
        return (
          [...read.listed].every(
            ([id, lag]) => JSON.stringify(lag) === JSON.stringify(read.offsets.get(id)),
          ) && read
        );
      },
      {
        timeoutMs: 60_000,
        what: () =>
          `the listing's lag and /offsets to agree; last read: ${JSON.stringify(seen && { listed: [...seen.listed], offsets: [...seen.offsets] })}`,
      },
    );
    const expectedIds = Object.entries(ids)
      .filter(
        ([k]) => (k !== 'share' || hasGroupType('share')) && (k !== 'streams' || hasGroupType('streams')),
      )
      .map(([, id]) => id)
      .sort();
    expect([...last.listed.keys()].sort()).toEqual(expectedIds);
    for (const [id, lag] of last.listed) expect(lag, id).toEqual(last.offsets.get(id));

    // The groups that never commit hold every partition: counted, none with an offset, no lag.
    for (const id of [ids.classicNoCommit, ids.consumerNoCommit]) {
      expect(last.listed.get(id), id).toMatchObject({ lag: 0, partitions: 3, partitionsWithoutOffset: 3 });
    }
    // The committing one: offset 2 of 5 records on each of 3 partitions.
    expect(last.listed.get(ids.consumerCommitted)).toMatchObject({
      lag: 9,
      partitions: 3,
      partitionsWithoutOffset: 0,
    });
  });
});
