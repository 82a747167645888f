/**
 * Validation answers stay small whatever came: at most the first 20 problems, the rest counted;
 * no message repeating the input (zod's unrecognized-keys message lists every key); a received
 * value echoed bounded in depth and length, so a body nested 200,000 deep is a 400, not a 500.
 * The group service is a stand-in: validation answers before any broker call.
 */

import { describe, expect, it } from 'vitest';
import { standInApp } from '../support/stand-in-app.js';

const app = standInApp();

const post = (body: string) =>
  app.request('/groups/describe', { method: 'POST', headers: { 'content-type': 'application/json' }, body });

interface Problem {
  type: string;
  detail: string;
  errors: Array<{ name: string; expected: string; received: string | null; message: string }>;
}

describe('validation answers under hostile input', () => {
  it('6,000 unknown body fields: a small 400 naming 20 of them and counting the rest, quickly', async () => {
    const fields = Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`field${i}`, i]));
    const start = performance.now();
    const res = await post(JSON.stringify({ groupIds: ['a'], ...fields }));
    const text = await res.text();
    expect(performance.now() - start).toBeLessThan(1_000);
    expect(res.status).toBe(400);
    expect(text.length).toBeLessThan(8_000);
    const body = JSON.parse(text) as Problem;
    expect(body.type).toBe('/problems/invalid-input');
    expect(body.errors).toHaveLength(20);
    expect(body.errors[0]).toMatchObject({ name: 'field0', received: '0' });
    expect(body.detail).toContain('and 5980 more (6000 problems in all)');
    // No message names a key other than its own.
    for (const e of body.errors) expect(e.message.match(/field\d+/g)).toEqual([e.name]);
  });

  it('a body nested 200,000 deep: 400 with a bounded echo, not 500', async () => {
    for (const nested of [
      '['.repeat(200_000) + ']'.repeat(200_000),
      `${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}`,
    ]) {
      const res = await post(nested);
      expect(res.status).toBe(400);
      const body = JSON.parse(await res.text()) as Problem;
      expect(body.type).toBe('/problems/invalid-input');
      expect(body.errors[0]?.received?.length ?? 0).toBeLessThan(300);
    }
  });

  it('a deep value inside a known field is echoed cut at a few levels', async () => {
    const res = await post(JSON.stringify({ groupIds: [[[[[['deep']]]]]] }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as Problem;
    expect(body.errors[0]).toMatchObject({ name: 'groupIds[0]', received: '[[[[…]]]]' });
  });
});
