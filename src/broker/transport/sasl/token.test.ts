import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BrokerUnavailableError } from '../../errors.js';
import { clientCredentialsToken } from './oidc.js';
import { refreshingToken, refreshMargin } from './token.js';

describe('refreshingToken', () => {
  it('keeps a token until a fifth of its life (at most a minute) is left, then fetches the next', async () => {
    let now = 0;
    let issued = 0;
    const source = refreshingToken(
      async () => ({ token: `t${++issued}`, expiresAt: now + 10_000 }),
      () => now,
    );
    expect(await source()).toBe('t1');
    now = 7_999;
    expect(await source()).toBe('t1');
    now = 8_000; // 10 s life: refreshed 2 s before its end
    expect(await source()).toBe('t2');
    expect(refreshMargin(3_600_000)).toBe(60_000);
  });

  it('callers at once share one request', async () => {
    let issued = 0;
    const source = refreshingToken(async () => {
      issued++;
      await new Promise((r) => setTimeout(r, 10));
      return { token: 'x', expiresAt: Date.now() + 60_000 };
    });
    expect(await Promise.all([source(), source(), source()])).toEqual(['x', 'x', 'x']);
    expect(issued).toBe(1);
  });

  it('a failed refresh serves the token still valid; with none valid, the failure is the answer', async () => {
    let now = 0;
    let fail = false;
    const source = refreshingToken(
      async () => {
        if (fail) throw new BrokerUnavailableError(undefined, 'endpoint down');
        return { token: 'ok', expiresAt: now + 10_000 };
      },
      () => now,
    );
    await source();
    fail = true;
    now = 8_500;
    expect(await source()).toBe('ok');
    now = 9_500;
    await expect(source()).rejects.toThrow('endpoint down');
  });
});

describe('clientCredentialsToken', () => {
  it('asks with HTTP Basic client authentication and the scope; names a refusal without the secret', async () => {
    const seen: { auth?: string; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        seen.push({ auth: req.headers.authorization, body });
        const ok = req.headers.authorization === `Basic ${Buffer.from('app:s3cret%2B').toString('base64')}`;
        if (!ok) {
          res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
          return;
        }
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"access_token":"tok","expires_in":3600}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token?tenant=x`;
    try {
      const good = clientCredentialsToken({
        tokenUrl: url,
        clientId: 'app',
        clientSecret: 's3cret+',
        scope: 'kafka read',
        clientAuth: 'basic',
      });
      expect(await good()).toBe('tok');
      expect(seen[0]?.body).toBe('grant_type=client_credentials&scope=kafka+read');
      const bad = clientCredentialsToken({
        tokenUrl: url,
        clientId: 'app',
        clientSecret: 'wrong-secret',
        clientAuth: 'basic',
      });
      const error = await bad().catch((e: Error) => e);
      expect(error).toBeInstanceOf(BrokerUnavailableError);
      expect((error as Error).message).toBe(
        `SASL OAUTHBEARER: the token endpoint ${url.replace(/\?.*/, '')} refused the client credentials of 'app' (HTTP 401, error 'invalid_client')`,
      );
      expect((error as Error).message).not.toContain('wrong-secret');
      const post = clientCredentialsToken({
        tokenUrl: url,
        clientId: 'app',
        clientSecret: 'p',
        clientAuth: 'post',
      });
      await post().catch(() => undefined);
      expect(seen.at(-1)).toEqual({
        auth: undefined,
        body: 'grant_type=client_credentials&client_id=app&client_secret=p',
      });
    } finally {
      server.close();
    }
  });
});
