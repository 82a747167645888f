/**
 * Tokens are never echoed: a since= given twice, a cursor of the wrong shape, an If-Match or a
 * planToken of the wrong type get a 400 that says how many and how long, not what they were. The
 * group service is a stand-in: these answers come before any broker call.
 */

import { describe, expect, it } from 'vitest';
import { standInApp } from '../support/stand-in-app.js';

const app = standInApp({}, { WRITES: 'enabled' });
const TOKEN = `eyJ0b2tlbiI6InNlY3JldCJ9.${'S3cr3tSignature'.repeat(4)}`;

describe('token parameters in validation answers', () => {
  it('a duplicated since= gets a 400 that does not repeat the token', async () => {
    const res = await app.request(`/groups/g1/health?since=${TOKEN}&since=${TOKEN}`);
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).not.toContain('S3cr3t');
    expect(text).not.toContain(TOKEN.slice(0, 20));
    expect(JSON.parse(text)).toMatchObject({
      errors: [{ name: 'since', received: expect.stringContaining('2 tokens') }],
    });
  });

  it('the same under /clusters/{alias}, and for a cursor given twice', async () => {
    for (const path of [
      `/clusters/default/groups/g1/health?since=${TOKEN}&since=x${TOKEN}`,
      `/groups?cursor=${TOKEN}&cursor=${TOKEN}`,
    ]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(400);
      expect(await res.text()).not.toContain('S3cr3t');
    }
  });

  it('a planToken of the wrong type is described, not repeated', async () => {
    const res = await app.request('/groups/g1/offsets/reset?execute=true', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'classic', planToken: [TOKEN, TOKEN] }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).not.toContain('S3cr3t');
  });
});
