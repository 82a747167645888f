import { describe, expect, it } from 'vitest';
import { latestPerInstance } from './static-members.js';

type M = { id: string; instance: string | null; epoch: number };
const m = (id: string, instance: string | null, epoch = 0): M => ({ id, instance, epoch });

describe('latestPerInstance', () => {
  it('keeps one entry per static instance: the highest epoch', () => {
    const members = [m('old', 'i-0', 5), m('dyn', null, 3), m('new', 'i-0', 7), m('other', 'i-1', 1)];
    expect(
      latestPerInstance(
        members,
        (x) => x.instance,
        (x) => x.epoch,
      ).map((x) => x.id),
    ).toEqual(['dyn', 'new', 'other']);
  });

  it('keeps the later entry when epochs tie or do not exist', () => {
    const members = [m('first', 'i-0'), m('second', 'i-0')];
    expect(latestPerInstance(members, (x) => x.instance).map((x) => x.id)).toEqual(['second']);
  });

  it('leaves dynamic members and distinct instances alone', () => {
    const members = [m('a', null), m('b', null), m('c', 'i-0'), m('d', 'i-1')];
    expect(latestPerInstance(members, (x) => x.instance)).toEqual(members);
  });
});
