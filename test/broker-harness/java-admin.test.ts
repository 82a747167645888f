/**
 * The Java Admin offsets reporter (test/broker-harness/Offsets.java) against real groups on the global setup's broker.
 */
import { describe, expect, inject, it } from 'vitest';
import { versionAtLeast } from './fetch.js';
import { type GroupSpec, startFixtures, uniqueName } from './fixtures.js';
import {
  type JavaAdminOffsets,
  javaAdminElectPreferredLeaders,
  javaAdminOffsets,
  parseOffsetsOutput,
} from './java-admin.js';
import { waitFor } from './wait.js';

const bootstrap = inject('kafkaBrokers');
const version = inject('kafkaVersion');
/** Share groups need 4.1+; 3.x has none. */
const hasShareGroups = !/^\d+\.\d+/.test(version) || versionAtLeast(version, 4, 1);
/** Share-partition lag (KIP-1226, DescribeShareGroupOffsets v1) needs 4.2+. */
const hasShareLag = !/^\d+\.\d+/.test(version) || versionAtLeast(version, 4, 2);

describe('parseOffsetsOutput', () => {
  it('reads every line kind, -1 as null, base64 metadata (empty too)', () => {
    const out = parseOffsetsOutput(
      [
        'COMMITTED t.a 0 4 0 bcOkIOKckw==',
        'COMMITTED t.a 1 2 -1 ',
        'SHARE t_b 0 7 3 -1',
        'END t.a 0 10',
        'DONE',
        '',
      ].join('\n'),
    );
    expect(out.committed.get('t.a:0')).toEqual({ offset: 4, leaderEpoch: 0, metadata: 'mä ✓' });
    expect(out.committed.get('t.a:1')).toEqual({ offset: 2, leaderEpoch: null, metadata: '' });
    expect(out.share.get('t_b:0')).toEqual({ startOffset: 7, leaderEpoch: 3, lag: null });
    expect(out.end.get('t.a:0')).toBe(10);
  });

  it('rejects output without DONE or with unknown lines', () => {
    expect(() => parseOffsetsOutput('END t 0 1\n')).toThrow(/DONE/);
    expect(() => parseOffsetsOutput('HELLO t 0 1\nDONE\n')).toThrow(/unexpected line/);
  });
});

describe('javaAdminOffsets', () => {
  it('reports committed, end and share offsets of live groups', { timeout: 180_000 }, async () => {
    const name = uniqueName('jadmin');
    const big = { name: `${name}-big`, partitions: 3, records: 10 };
    const small = { name: `${name}-small`, partitions: 1, records: 2 };
    const commit = 4;
    const classicId = `jadmin classic/ü ✓ ${name}`;
    const shareId = `jadmin-share-${name}`;
    const groups: GroupSpec[] = [{ type: 'classic', groupId: classicId, topics: [big, small], commit }];
    if (hasShareGroups) {
      groups.push({ type: 'share', groupId: shareId, topics: [big.name], offsetReset: 'earliest' });
    }

    const fixtures = await startFixtures({ bootstrap, groups });
    try {
      const started = Date.now();
      const k = await javaAdminOffsets({ bootstrap, groupId: classicId });
      process.stderr.write(`[java-admin] classic offsets in ${Date.now() - started} ms\n`);
      const expectedKeys: string[] = [];
      for (const t of [big, small]) {
        for (let p = 0; p < t.partitions; p++) {
          const key = `${t.name}:${p}`;
          expectedKeys.push(key);
          expect(k.committed.get(key)?.offset, `committed ${key}`).toBe(Math.min(commit, t.records));
          expect(k.end.get(key), `end ${key}`).toBe(t.records);
        }
      }
      expect([...k.committed.keys()].sort()).toEqual(expectedKeys.sort());
      expect([...k.end.keys()].sort()).toEqual(expectedKeys.sort());
      expect(k.share.size).toBe(0);

      const committedOnly = await javaAdminOffsets({
        bootstrap,
        groupId: classicId,
        isolation: 'read_committed',
      });
      expect(committedOnly.end).toEqual(k.end); // no transactions: the LSO is the high watermark

      if (hasShareGroups) {
        // Ready means members hold assignments; the share-partition state appears with the first
        // fetch, and the lag falls as the (implicitly acknowledged) records complete delivery. The start
        // offset need not move meanwhile: Kafka defines it as the earliest offset still being evaluated
        // for delivery, and records after it may already be complete (SharePartitionOffsetInfo javadoc).
        const settled = (s: JavaAdminOffsets) =>
          Array.from({ length: big.partitions }, (_, p) => s.share.get(`${big.name}:${p}`)).every(
            (o) => o !== undefined && (!hasShareLag || o.lag === 0),
          );
        let last: JavaAdminOffsets | undefined;
        const s = await waitFor(
          async () => {
            last = await javaAdminOffsets({ bootstrap, groupId: shareId, share: true });
            return settled(last) && last;
          },
          {
            timeoutMs: 60_000,
            what: () =>
              `share-partition state of ${shareId} on every partition${hasShareLag ? ' with lag 0' : ''}; last: ${JSON.stringify([...(last?.share ?? [])])}`,
          },
        );
        process.stderr.write(`[java-admin] share offsets: ${JSON.stringify([...s.share])}\n`);
        expect(s.committed.size).toBe(0);
        expect([...s.share.keys()].sort()).toEqual(
          Array.from({ length: big.partitions }, (_, p) => `${big.name}:${p}`).sort(),
        );
        for (const [key, o] of s.share) {
          expect(o.startOffset, `share start ${key}`).toBeGreaterThanOrEqual(0);
          expect(o.startOffset, `share start ${key}`).toBeLessThanOrEqual(big.records);
          if (hasShareLag) expect(o.lag, `share lag ${key}`).toBe(0);
          expect(s.end.get(key), `end ${key}`).toBe(big.records);
        }
        expect(s.end.size).toBe(big.partitions);
      }
    } finally {
      await fixtures.stop();
    }
  });

  it('reports nothing (no error) for groups that do not exist', { timeout: 60_000 }, async () => {
    const none = await javaAdminOffsets({ bootstrap, groupId: uniqueName('jadmin-missing') });
    expect([none.committed.size, none.end.size, none.share.size]).toEqual([0, 0, 0]);
    if (!hasShareGroups) return;
    const noShare = await javaAdminOffsets({ bootstrap, groupId: uniqueName('jadmin-missing'), share: true });
    expect([noShare.committed.size, noShare.end.size, noShare.share.size]).toEqual([0, 0, 0]);
  });

  it('elects preferred leaders where no election is needed without failing', {
    timeout: 60_000,
  }, async () => {
    // One broker leads every partition it holds: each partition answers "not needed", the call succeeds.
    await expect(javaAdminElectPreferredLeaders(bootstrap)).resolves.toBeUndefined();
  });
});
