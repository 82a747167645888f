import { describe, expect, it } from 'vitest';
import type { Group } from '../model.js';
import { changesOf, entryOf, readSeen } from './view.js';

const member = (memberId: string, partitions: number[]) => ({
  memberId,
  instanceId: null,
  clientId: `c-${memberId}`,
  clientHost: '/127.0.0.1',
  rack: null,
  memberEpoch: 3,
  partitions: [{ topic: 't', topicId: null, partitions }],
});

const group = (over: Partial<Record<string, unknown>> = {}) =>
  ({
    type: 'consumer',
    groupId: 'g',
    state: 'Stable',
    groupEpoch: 3,
    assignmentEpoch: 3,
    members: [member('a', [0, 1]), member('b', [2, 3])],
    ...over,
  }) as unknown as Group;

describe('entryOf and changesOf', () => {
  it('see nothing new in the same group, whatever order Kafka lists members and partitions in', () => {
    const reordered = group({ members: [member('b', [3, 2]), member('a', [1, 0])] });
    expect(changesOf(entryOf(group(), 'OK'), entryOf(reordered, 'OK'))).toEqual([]);
  });

  it('name each change: appeared, state, epoch, members, assignment, verdict', () => {
    const before = entryOf(group(), 'OK');
    expect(changesOf(undefined, before)).toEqual(['appeared']);
    expect(changesOf(before, entryOf(group({ state: 'Reconciling' }), 'OK'))).toEqual(['state']);
    expect(changesOf(before, entryOf(group({ groupEpoch: 4 }), 'OK'))).toEqual(['epoch']);
    expect(changesOf(before, entryOf(group({ members: [member('a', [0, 1, 2, 3])] }), 'OK'))).toEqual([
      'members',
      'assignment',
    ]);
    expect(
      changesOf(before, entryOf(group({ members: [member('a', [0, 2]), member('b', [1, 3])] }), 'OK')),
    ).toEqual(['assignment']);
    expect(changesOf(before, entryOf(group(), 'LAGGING'))).toEqual(['verdict']);
  });

  it('reads back only entries of its own shape', () => {
    const s = [entryOf(group(), null)];
    expect(readSeen({ w: 'abc', s })).toEqual({ w: 'abc', s });
    expect(readSeen({ w: 'abc', s: [['g', 'consumer']] })).toBeUndefined();
    expect(readSeen({ s })).toBeUndefined();
    expect(readSeen(null)).toBeUndefined();
  });
});
