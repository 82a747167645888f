/**
 * The test's OAuth issuer: a signing key pair made at test time (jose) and its public half served
 * as a JWKS over loopback HTTP, for the broker's OAUTH listener. Tokens are signed by the tests
 * themselves (their own token endpoint, `oauth.test.ts`), with the private key handed over as a JWK
 * (test-only, like the SASL test password).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

export interface TestIssuer {
  /** http://127.0.0.1:PORT/jwks */
  readonly jwksUrl: string;
  readonly issuer: string;
  readonly audience: string;
  /** The private signing key as a JWK (with its `kid` and `alg`). */
  readonly privateJwk: JWK;
  /** How many times the key set was fetched (the broker fetches it at start and on unknown keys). */
  fetches(): number;
  close(): Promise<void>;
}

export async function startTestIssuer(): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `kgr-test-${Date.now().toString(36)}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256' };
  const body = JSON.stringify({ keys: [publicJwk] });
  let fetches = 0;
  const server = createServer((req, res) => {
    if (req.url !== '/jwks') {
      res.writeHead(404).end();
      return;
    }
    fetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    jwksUrl: `http://127.0.0.1:${port}/jwks`,
    issuer: `http://127.0.0.1:${port}`,
    audience: 'kafka-test-broker',
    privateJwk,
    fetches: () => fetches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
