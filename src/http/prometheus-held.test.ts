import { describe, expect, it } from 'vitest';
import { exposition, type MetricFamily } from './prometheus.js';
import { BLOCK, HeldFamilies } from './prometheus-held.js';

const family = (name: string, samples: MetricFamily['samples']): MetricFamily => ({
  name,
  help: `${name} help`,
  type: 'gauge',
  samples,
});

describe('HeldFamilies', () => {
  it('writes what it held as the exposition would, family by family, in the order added', () => {
    const a1 = family('a', [
      { labels: { group: 'g"1', type: 'classic' }, value: 1 },
      { labels: { group: 'g2', type: 'classic', topic: 't\n' }, value: Number.NaN },
    ]);
    const b1 = family('b', [{ labels: {}, value: 2.5 }]);
    const a2 = family('a', [{ labels: { group: 'g3', type: 'share' }, value: 3 }]);
    const held = new HeldFamilies([a1, b1, family('empty', [])]);
    held.add(0, a1);
    held.add(1, b1);
    held.add(0, a2);
    const text = [...held.write(1)].join('');
    expect(text).toBe(exposition([family('a', [...a1.samples, ...a2.samples]), b1, family('empty', [])]));
  });

  it('writes a chunk of samples at a time, and holds numbers, not text', () => {
    const N = 20_000;
    const f = family(
      'kafka_group_members',
      Array.from({ length: N }, (_, i) => ({
        labels: { group: `group-${i}`, type: 'consumer' },
        value: i % 7,
      })),
    );
    const held = new HeldFamilies([f]);
    held.add(0, f);
    expect(held.samples()).toBe(N);
    // Three indexes (shape, group, type) and a value: 20 bytes a sample, and at most a block unused.
    expect(held.bytes()).toBeLessThanOrEqual(20 * N + BLOCK * (4 + 8));
    expect(held.distinctStrings()).toBe(N + 1);
    const pieces = [...held.write(1_000)];
    expect(pieces).toHaveLength(N / 1_000);
    const longest = Math.max(...pieces.map((p) => p.length));
    expect(longest).toBeLessThan(1_000 * 60 + 200);
    expect(pieces.join('')).toBe(exposition([f]));
    // Written families let go of their numbers.
    expect(held.bytes()).toBe(0);
  });
});
