/** Grants and the token bucket: pure rules, no broker. */

import { describe, expect, it } from 'vitest';
import { type Grant, matchesPattern, Permissions, parseGrants } from '../../src/auth/grants.js';
import { TokenBucketLimiter } from '../../src/http/rate-limit.js';

describe('matchesPattern', () => {
  it.each([
    ['team-a-*', 'team-a-orders', true],
    ['team-a-*', 'team-a-', true],
    ['team-a-*', 'team-b-orders', false],
    ['team-a-*', 'xteam-a-orders', false],
    ['orders', 'orders', true],
    ['orders', 'orders-eu', false],
    ['*-eu', 'orders-eu', true],
    ['*-eu', 'orders-eu-2', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'acb', false],
    ['ab*ba', 'aba', false],
    ['*', '', true],
    ['*', 'é/%00 ü', true],
  ])('%s against %s is %s', (pattern, id, expected) => {
    expect(matchesPattern(pattern, id)).toBe(expected);
  });
});

describe('Permissions', () => {
  const permissions = new Permissions(
    parseGrants(
      [
        { groups: ['team-a-*'], types: ['consumer'], actions: ['read'] },
        { groups: 'shared', actions: ['read', 'offsets'] },
      ],
      'test',
    ),
  );

  it('needs the id, the type and the action in one grant', () => {
    expect(permissions.allows('read', 'team-a-x', 'consumer')).toBe(true);
    expect(permissions.allows('read', 'team-a-x', 'classic')).toBe(false);
    expect(permissions.allows('offsets', 'team-a-x', 'consumer')).toBe(false);
    expect(permissions.allows('offsets', 'shared', 'share')).toBe(true);
    // Type not known yet: the id decides for now; unknown type (null) only where no type is named.
    expect(permissions.allows('read', 'team-a-x')).toBe(true);
    expect(permissions.allows('read', 'team-a-x', null)).toBe(false);
    expect(permissions.allows('read', 'shared', null)).toBe(true);
  });

  it('knows which actions it has at all', () => {
    expect(permissions.hasAction('read')).toBe(true);
    expect(new Permissions([]).hasAction('read')).toBe(false);
  });
});

describe('TokenBucketLimiter', () => {
  it('lets a burst through, refills at the rate, and keeps keys apart', async () => {
    let now = 0;
    const limiter = new TokenBucketLimiter(60, 2, () => now);
    expect(await limiter.take('a')).toEqual({
      allowed: true,
      quota: { limit: 2, windowSeconds: 2, remaining: 1, resetSeconds: 1 },
    });
    expect(await limiter.take('a')).toEqual({
      allowed: true,
      quota: { limit: 2, windowSeconds: 2, remaining: 0, resetSeconds: 2 },
    });
    expect(await limiter.take('a')).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
      quota: { limit: 2, windowSeconds: 2, remaining: 0, resetSeconds: 2 },
    });
    expect((await limiter.take('b')).allowed).toBe(true);
    now += 1000;
    expect((await limiter.take('a')).allowed).toBe(true);
    expect((await limiter.take('a')).allowed).toBe(false);
  });
});

describe('grants limited to clusters', () => {
  const grants = parseGrants(
    [
      { groups: '*', actions: ['read'], clusters: ['eu-*'] },
      { groups: 'shared', actions: ['offsets'] },
    ],
    'team',
  );
  const permissions = new Permissions(grants);

  it('a grant with clusters covers those aliases (globs too); one without covers every cluster', () => {
    expect(permissions.seesCluster('eu-west')).toBe(true);
    expect(permissions.seesCluster('us-east')).toBe(true); // the second grant has no clusters
    expect(permissions.forCluster('eu-west').allows('read', 'orders')).toBe(true);
    expect(permissions.forCluster('us-east').allows('read', 'orders')).toBe(false);
    expect(permissions.forCluster('us-east').allows('offsets', 'shared')).toBe(true);
    expect(new Permissions([grants[0] as Grant]).seesCluster('us-east')).toBe(false);
  });

  it('refuses a clusters field that is not a list of aliases', () => {
    expect(() => parseGrants({ groups: '*', actions: ['read'], clusters: [] }, 'team')).toThrow(
      /team\.clusters/,
    );
  });
});
