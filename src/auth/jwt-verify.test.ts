import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joseVerifier } from './jwt-verify.js';

const ISSUER = 'https://issuer.example';
const AUDIENCE = 'kafka-groups-rest';
let server: Server;
let verify: ReturnType<typeof joseVerifier>;
let sign: (claims: JWTPayload) => Promise<string>;

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  verify = joseVerifier({
    jwksUrl: `http://127.0.0.1:${port}/jwks`,
    issuer: ISSUER,
    audience: AUDIENCE,
    grantsClaim: 'grants',
  });
  sign = (claims) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime('5m')
      .sign(privateKey);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("a JWT's subject (RFC 7519: a StringOrURI)", () => {
  it('a string: accepted', async () => {
    const outcome = await verify(await sign({ sub: 'svc-reporting' }));
    expect(outcome).toMatchObject({ ok: true, payload: { sub: 'svc-reporting' } });
  });

  it.each([
    ['a number', 7, 'a number'],
    ['an object', { id: 'x' }, 'an object'],
    ['an array', ['a'], 'an array'],
    ['a boolean', true, 'a boolean'],
    ['an empty string', '', 'an empty string'],
  ])('%s: refused as an invalid token, naming the claim', async (_name, sub, received) => {
    const outcome = await verify(await sign({ sub } as unknown as JWTPayload));
    expect(outcome).toEqual({
      ok: false,
      reason: `the token's 'sub' claim is not accepted: expected a non-empty string, received ${received}`,
      unavailable: false,
    });
  });
});
