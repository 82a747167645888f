import { describe, expect, it } from 'vitest';
import { bindCluster, clusterMismatch } from './cluster-binding.js';

const here = { alias: 'default', id: 'abc' };

describe('tokens bound to a cluster', () => {
  it('accepts data made on this cluster', () => {
    expect(clusterMismatch(bindCluster({ g: 'x' }, here), here)).toBeUndefined();
  });

  it('refuses another alias, another cluster id behind the alias, and data naming no cluster', () => {
    expect(clusterMismatch(bindCluster({}, { alias: 'other', id: 'abc' }), here)).toBe(
      "the token was made on the cluster 'other', not on 'default'",
    );
    expect(clusterMismatch(bindCluster({}, { alias: 'default', id: 'xyz' }), here)).toContain(
      'its cluster id differs',
    );
    for (const data of [
      {},
      null,
      'k',
      { k: ['default'] },
      { k: [1, 2] },
      Object.create({ k: ['default', 'abc'] }),
    ])
      expect(clusterMismatch(data, here)).toContain('names no cluster');
  });
});
