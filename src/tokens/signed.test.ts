import { describe, expect, it } from 'vitest';
import { tokenSigner } from './signed.js';

const limits = { maxAgeMs: 60_000, maxChars: 4096 };

describe('signed tokens', () => {
  it('round-trips data for the purpose it was signed for', async () => {
    const signer = tokenSigner(['a-key-of-enough-length-for-tests-0001']);
    const token = await signer.sign('plan', { group: 'g', offsets: [1, 2] });
    const verified = await signer.verify('plan', token, limits);
    expect(verified).toMatchObject({ ok: true, data: { group: 'g', offsets: [1, 2] } });
  });

  it('refuses a token with one character of its data changed', async () => {
    const signer = tokenSigner(['k1-key-of-enough-length-for-tests-0001']);
    const token = await signer.sign('plan', { offset: 5 });
    const [body = '', mac] = token.split('.');
    const flipped = `${body.slice(0, 3)}${body[3] === 'A' ? 'B' : 'A'}${body.slice(4)}.${mac}`;
    expect(await signer.verify('plan', flipped, limits)).toMatchObject({
      ok: false,
      reason: 'bad-signature',
    });
  });

  it('refuses a token of another deployment, accepts one of a rotated key', async () => {
    const old = tokenSigner(['old-key-of-enough-length-for-tests-01']);
    const other = tokenSigner(['other-key-of-enough-length-for-test-1']);
    const rotated = tokenSigner([
      'new-key-of-enough-length-for-tests-01',
      'old-key-of-enough-length-for-tests-01',
    ]);
    const token = await old.sign('snapshot', 1);
    expect(await other.verify('snapshot', token, limits)).toMatchObject({
      ok: false,
      reason: 'bad-signature',
    });
    expect(await rotated.verify('snapshot', token, limits)).toMatchObject({ ok: true, data: 1 });
  });

  it('refuses a genuine token used for another purpose', async () => {
    const signer = tokenSigner();
    const token = await signer.sign('snapshot', 1);
    expect(await signer.verify('plan', token, limits)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('refuses old, oversized and malformed tokens', async () => {
    let clock = 1_000_000;
    const signer = tokenSigner([], () => clock);
    const token = await signer.sign('plan', 'x');
    clock += 61_000;
    expect(await signer.verify('plan', token, limits)).toMatchObject({ ok: false, reason: 'expired' });
    expect(await signer.verify('plan', token, { ...limits, maxChars: 10 })).toMatchObject({
      ok: false,
      reason: 'too-large',
    });
    for (const bad of ['', 'abc', 'a.b.c', 'a.!!', `${token}.x`]) {
      expect(await signer.verify('plan', bad, limits)).toMatchObject({ ok: false, reason: 'malformed' });
    }
  });
});
