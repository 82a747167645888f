/**
 * Worst first when a group's lag is not known, on a stand-in group service (a single real broker
 * makes no unreadable partition; test/integration/worst-first.test.ts has the rest on the real
 * one): a group whose offsets could not be read, and one with a partition that could not, are
 * named apart on pages and in the stream, never kept by a filter or ranked by a sort.
 */

import { describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { BrokerTimeoutError } from '../broker/errors.js';
import { loadConfig } from '../config.js';
import type { GroupListing } from '../groups/model.js';
import type { OffsetTable } from '../groups/offsets/tables.js';
import type { Outcome } from '../groups/outcome.js';
import type { GroupService } from '../groups/service.js';
import { securityFrom } from '../http/security.js';

const listing = (groupId: string): GroupListing => ({
  groupId,
  type: 'classic',
  protocolType: '',
  state: 'Empty',
});
const LISTED = ['a', 'b', 'c', 'd'].map(listing);

function table(lag: number, partitionsWithErrors = 0): OffsetTable {
  return {
    topics: [],
    totals: { lag, maxLag: null, partitions: 2, partitionsWithoutOffset: 0, partitionsWithErrors },
  } as unknown as OffsetTable;
}

const OFFSETS = new Map<string, Outcome<OffsetTable>>([
  ['a', { ok: true, value: table(500) }],
  // One of its two partitions could not be read: 10 is only what the other says.
  ['b', { ok: true, value: table(10, 1) }],
  ['c', { ok: false, error: new BrokerTimeoutError('127.0.0.1:9092', 'OffsetFetch', 2000) }],
  ['d', { ok: true, value: table(5) }],
]);

const service = new Proxy(
  {
    listGroups: async () => ({ groups: LISTED, failures: [] }),
    offsetsOfGroups: async (batch: readonly GroupListing[]) =>
      new Map(batch.map((g) => [g.groupId, OFFSETS.get(g.groupId) as Outcome<OffsetTable>])),
  } as unknown as GroupService,
  {
    get: (target, name) =>
      name in target
        ? target[name as keyof GroupService]
        : () => {
            throw new Error(`not asked of this stand-in: ${String(name)}`);
          },
  },
);

const app = createApp({
  service,
  security: securityFrom(loadConfig({ AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' })),
});

// biome-ignore lint/suspicious/noExplicitAny: a JSON answer
type Json = any;

describe('worst first when a lag is not known (stand-in group service)', () => {
  it('a sorted page ranks the known ones and names the others in lagUnknown', async () => {
    const res = await app.request('/groups?sort=-lag&limit=10');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.groups.map((g: Json) => g.groupId)).toEqual(['a', 'd']);
    expect(body.lagUnknown.map((g: Json) => g.groupId)).toEqual(['b', 'c']);
    expect(body.lagUnknown[0].lag).toMatchObject({ lag: 10, partitionsWithErrors: 1 });
    expect(body.lagUnknown[1].lagError).toMatchObject({ type: '/problems/broker-timeout' });
    expect(body.scanned).toEqual({ scanned: 4, lagUnknown: 2, unread: 0 });
  });

  it('a filter keeps neither, even one whose known part passes it', async () => {
    const body = (await (await app.request('/groups?minLag=6')).json()) as Json;
    expect(body.groups.map((g: Json) => g.groupId)).toEqual(['a']);
    expect(body.lagUnknown.map((g: Json) => g.groupId)).toEqual(['b', 'c']);
  });

  it('the stream writes each as its line, in order, and counts them', async () => {
    const res = await app.request('/groups.ndjson?minLag=1');
    const lines = (await res.text())
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Json);
    expect(lines.map((l) => l.groupId ?? 'end')).toEqual(['a', 'b', 'c', 'd', 'end']);
    expect(lines[2].lagError).toMatchObject({ type: '/problems/broker-timeout' });
    expect(lines.at(-1).end).toEqual({ groups: 4, failures: 0, lagErrors: 1, scanned: 4, lagUnknown: 2 });
  });
});
