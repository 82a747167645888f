import { describe, expect, it } from 'vitest';
import { NO_DEADLINE } from '../../broker/deadline.js';
import type { BrokerConnection } from '../../broker/transport/connection.js';
import type { BrokerRef, Group } from '../model.js';
import { coalesced } from './coalesce.js';
import type { GroupDescriber, TypedOutcome } from './describer.js';

const connection = (label: string) => ({ label }) as BrokerConnection;
const coordinator = (nodeId: number): BrokerRef => ({ nodeId, host: '127.0.0.1', port: 9000 + nodeId });

/** A describer that records each call and answers after `delayMs`: ids starting with 'x' are absent. */
function recording(delayMs = 5) {
  const calls: { node: number; ids: string[] }[] = [];
  let failNext: Error | undefined;
  const describer: GroupDescriber = {
    type: 'classic',
    api: 'DescribeGroups',
    async describe(_connection, at, groupIds) {
      calls.push({ node: at.nodeId, ids: [...groupIds] });
      const failure = failNext;
      failNext = undefined;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (failure) throw failure;
      return new Map<string, TypedOutcome>(
        groupIds.map((id) => [
          id,
          id.startsWith('x')
            ? { kind: 'absent' }
            : { kind: 'found', group: { groupId: id, type: 'classic' } as unknown as Group },
        ]),
      );
    },
  };
  return {
    calls,
    describer,
    failOnce: (error: Error) => {
      failNext = error;
    },
  };
}

describe('coalesced describes', () => {
  it('sends a describe that finds nothing in flight at once, in the turn of its caller', async () => {
    const { calls, describer } = recording();
    const d = coalesced(describer);
    const answer = d.describe(connection('b1'), coordinator(1), ['a'], NO_DEADLINE);
    expect(calls).toEqual([{ node: 1, ids: ['a'] }]);
    expect((await answer).get('a')?.kind).toBe('found');
    // Nothing in flight again: the next one goes at once too.
    const next = d.describe(connection('b1'), coordinator(1), ['b'], NO_DEADLINE);
    expect(calls).toHaveLength(2);
    await next;
  });

  it('sends concurrent describes on one coordinator as one RPC after the first, each caller answered for its own groups', async () => {
    const { calls, describer } = recording();
    const d = coalesced(describer);
    const ids = Array.from({ length: 64 }, (_, i) => (i % 8 === 0 ? `x${i}` : `g${i}`));
    const answers = await Promise.all(
      ids.map((id) => d.describe(connection('b1'), coordinator(1), [id], NO_DEADLINE)),
    );
    // The first found nothing in flight and left alone; the other 63 arrived in its turn.
    expect(calls).toHaveLength(2);
    expect(calls[0]?.ids).toEqual([ids[0]]);
    expect(calls[1]?.ids.sort()).toEqual(ids.slice(1).sort());
    answers.forEach((answer, i) => {
      const id = ids[i] as string;
      expect([...answer.keys()]).toEqual([id]);
      expect(answer.get(id)?.kind).toBe(id.startsWith('x') ? 'absent' : 'found');
    });
  });

  it('keeps coordinators apart, and a batch names a group asked twice once', async () => {
    const { calls, describer } = recording();
    const d = coalesced(describer);
    await Promise.all([
      d.describe(connection('b1'), coordinator(1), ['a', 'b'], NO_DEADLINE),
      d.describe(connection('b2'), coordinator(2), ['c'], NO_DEADLINE),
      d.describe(connection('b1'), coordinator(1), ['b', 'd'], NO_DEADLINE),
    ]);
    expect(calls.map((c) => [c.node, c.ids])).toEqual([
      [1, ['a', 'b']],
      [2, ['c']],
      [1, ['b', 'd']],
    ]);
  });

  it('batches what arrives while the RPCs in flight are out, and sends it when one returns', async () => {
    const { calls, describer } = recording(30);
    const d = coalesced(describer, { maxInFlight: 1, windowMs: 10_000 });
    const first = d.describe(connection('b1'), coordinator(1), ['a'], NO_DEADLINE);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = ['b', 'c', 'd'].map((id) =>
      d.describe(connection('b1'), coordinator(1), [id], NO_DEADLINE),
    );
    await Promise.all([first, ...later]);
    expect(calls.map((c) => c.ids)).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('sends a waiting batch when the window closes, even with every slot taken', async () => {
    const { calls, describer } = recording(2_000);
    const d = coalesced(describer, { maxInFlight: 1, windowMs: 20 });
    const started = Date.now();
    const first = d.describe(connection('b1'), coordinator(1), ['a'], NO_DEADLINE);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = d.describe(connection('b1'), coordinator(1), ['b'], NO_DEADLINE);
    // The second RPC leaves after the window (20 ms), long before the first returns (2 s).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(calls.map((c) => c.ids)).toEqual([['a'], ['b']]);
    await Promise.all([first, second]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('fails every caller of a failed RPC, and the next batch goes out afresh', async () => {
    const { calls, describer, failOnce } = recording();
    const d = coalesced(describer);
    // Out at once; the two below arrive while it is in flight and travel together.
    const first = d.describe(connection('b1'), coordinator(1), ['z'], NO_DEADLINE);
    failOnce(new Error('socket closed'));
    const failed = await Promise.allSettled([
      d.describe(connection('b1'), coordinator(1), ['a'], NO_DEADLINE),
      d.describe(connection('b1'), coordinator(1), ['b'], NO_DEADLINE),
    ]);
    expect((await first).get('z')?.kind).toBe('found');
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    const again = await d.describe(connection('b1'), coordinator(1), ['a'], NO_DEADLINE);
    expect(again.get('a')?.kind).toBe('found');
    expect(calls.map((c) => c.ids)).toEqual([['z'], ['a', 'b'], ['a']]);
  });

  it('splits batches at maxGroups, never splitting one caller', async () => {
    const { calls, describer } = recording();
    const d = coalesced(describer, { maxGroups: 3 });
    await Promise.all([
      d.describe(connection('b1'), coordinator(1), ['a', 'b'], NO_DEADLINE),
      d.describe(connection('b1'), coordinator(1), ['c', 'd'], NO_DEADLINE),
      d.describe(connection('b1'), coordinator(1), ['e'], NO_DEADLINE),
    ]);
    expect(calls.map((c) => c.ids)).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
  });
});
