import { describe, expect, it } from 'vitest';
import { tokenSigner } from '../../tokens/signed.js';
import { fromWire, PLAN_TOKEN_PURPOSE, type PlanBinding, requestDigest, toWire } from './token.js';

const binding: PlanBinding = {
  groupId: 'orders/eu west',
  type: 'consumer',
  state: 'Empty',
  groupEpoch: 7,
  assignmentEpoch: 7,
  request: 'abc',
  partitions: [
    { topic: 'a', partition: 0, current: 5, target: 0 },
    { topic: 'a', partition: 1, current: null, target: 3 },
    { topic: 'b', partition: 2, current: 9, target: 9 },
  ],
};

describe('plan token data', () => {
  it('round-trips through a signed token', async () => {
    const signer = tokenSigner(['k'.repeat(32)]);
    const token = await signer.sign(PLAN_TOKEN_PURPOSE, toWire(binding));
    const verified = await signer.verify(PLAN_TOKEN_PURPOSE, token, { maxAgeMs: 1000, maxChars: 10_000 });
    expect(verified.ok && fromWire(verified.data)).toEqual(binding);
  });

  it('refuses data that is not a plan', () => {
    expect(fromWire(null)).toBeUndefined();
    expect(fromWire({ ...toWire(binding), y: 'queue' })).toBeUndefined();
    expect(fromWire({ ...toWire(binding), p: { a: [[0, 1]] } })).toBeUndefined();
    expect(fromWire({ ...toWire(binding), e: ['1', null] })).toBeUndefined();
  });

  it('digests requests by content, whatever the key order', async () => {
    const a = await requestDigest({ scenario: 'to-offset', offset: 3, topics: [{ topic: 't' }] });
    const b = await requestDigest({ topics: [{ topic: 't' }], offset: 3, scenario: 'to-offset' });
    const c = await requestDigest({ scenario: 'to-offset', offset: 4, topics: [{ topic: 't' }] });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});

describe('plan token topics', () => {
  it('keeps topics named like Object.prototype members as topics', () => {
    const odd: PlanBinding = {
      ...binding,
      partitions: [
        { topic: '__proto__', partition: 0, current: 1, target: 0 },
        { topic: 'constructor', partition: 0, current: 2, target: 0 },
      ],
    };
    const wire = JSON.parse(JSON.stringify(toWire(odd)));
    expect(fromWire(wire)).toEqual(odd);
  });
});
