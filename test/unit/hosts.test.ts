/**
 * The hosts a server answers for, as a page on a rebound name sees it: with AUTH=none and no
 * ALLOWED_HOSTS only loopback names are served and any other host gets a 421 on every route, the
 * open ones and /mcp included; ALLOWED_HOSTS names them otherwise; with authentication any host is
 * served unless a list says otherwise. /mcp also refuses (403) an Origin that is none of these.
 * The app over a stand-in service; the Node server itself: test/runtime/server.test.ts.
 */

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hostPattern, servesHost } from '../../src/config/hosts.js';
import { standInApp } from '../support/stand-in-app.js';

// /clusters asks no broker: what answers there is the host rule alone.
const listing = {} as never;
const MCP = {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
};
const ROUTES = ['/groups', '/groups/g1', '/healthz', '/openapi.json', '/docs', '/clusters', '/nowhere'];

async function problem(res: Response) {
  return { status: res.status, ...((await res.json()) as { type?: string; host?: string; detail?: string }) };
}

describe('with AUTH=none and no ALLOWED_HOSTS', () => {
  const app = standInApp(listing);

  it.each(ROUTES)('refuses another host on %s with a 421 naming it and the variable', async (path) => {
    const got = await problem(await app.request(`http://evil.example.com:8080${path}`));
    expect(got).toMatchObject({
      status: 421,
      type: '/problems/host-not-allowed',
      host: 'evil.example.com:8080',
    });
    expect(got.detail).toContain('ALLOWED_HOSTS');
  });

  it('refuses another host on /mcp, and on a name that only ends like localhost', async () => {
    expect((await app.request('http://evil.example.com/mcp', MCP)).status).toBe(421);
    expect((await app.request('http://localhost.evil.example/groups')).status).toBe(421);
    expect((await app.request('http://127.0.0.1.nip.io/groups')).status).toBe(421);
  });

  it.each(['localhost', 'localhost:8080', '127.0.0.1:9', '[::1]', '[::1]:8080'])(
    'serves %s',
    async (host) => {
      const res = await app.request(`http://${host}/clusters`);
      expect(res.status).toBe(200);
      expect((await app.request(`http://${host}/mcp`, MCP)).status).toBe(200);
    },
  );

  it('refuses /mcp from a page of another origin (403), takes one of a host served', async () => {
    const from = (origin: string) =>
      app.request('http://localhost:8080/mcp', { ...MCP, headers: { ...MCP.headers, origin } });
    const refused = await problem(await from('http://evil.example.com'));
    expect(refused).toMatchObject({ status: 403, type: '/problems/origin-not-allowed' });
    expect((await from('null')).status).toBe(403);
    expect((await from('http://localhost:6274')).status).toBe(200);
    expect((await from('http://127.0.0.1:8080')).status).toBe(200);
  });
});

describe('ALLOWED_HOSTS', () => {
  const app = standInApp(listing, { ALLOWED_HOSTS: 'groups.example.com,*.internal.example:8443' });

  it('serves the hosts it lists, with their ports, and nothing else, loopback included', async () => {
    expect((await app.request('http://groups.example.com/clusters')).status).toBe(200);
    expect((await app.request('https://groups.example.com:9443/clusters')).status).toBe(200);
    expect((await app.request('https://a.b.internal.example:8443/clusters')).status).toBe(200);
    expect((await app.request('https://internal.example:8443/groups')).status).toBe(421);
    expect((await app.request('https://a.internal.example:443/groups')).status).toBe(421);
    expect((await app.request('http://localhost/groups')).status).toBe(421);
  });

  it('takes CORS_ORIGINS as origins for /mcp', async () => {
    const withCors = standInApp(listing, {
      ALLOWED_HOSTS: 'groups.example.com',
      CORS_ORIGINS: 'https://dash.example.net',
    });
    const from = (origin: string) =>
      withCors.request('http://groups.example.com/mcp', { ...MCP, headers: { ...MCP.headers, origin } });
    expect((await from('https://dash.example.net')).status).toBe(200);
    expect((await from('https://groups.example.com')).status).toBe(200);
    expect((await from('https://other.example.net')).status).toBe(403);
  });
});

describe('with authentication and no ALLOWED_HOSTS', () => {
  const key = 'k'.repeat(40);
  const app = standInApp(listing, {
    AUTH: '',
    AUTH_API_KEYS: `ops:${createHash('sha256').update(key).digest('hex')}`,
    AUTH_GRANTS: '{"ops":{"groups":"*","actions":"read"}}',
  });

  it('serves any host: credentials, not the name, decide', async () => {
    const res = await app.request('http://groups.internal:8080/clusters', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect((await app.request('http://groups.internal:8080/clusters')).status).toBe(401);
  });

  it('refuses /mcp from another origin than its own', async () => {
    const from = (origin: string) =>
      app.request('http://groups.internal:8080/mcp', {
        ...MCP,
        headers: { ...MCP.headers, origin, authorization: `Bearer ${key}` },
      });
    expect((await from('http://groups.internal:8080')).status).toBe(200);
    expect((await from('http://evil.example.com')).status).toBe(403);
  });
});

describe('host patterns', () => {
  const rule = (entries: string[]) => ({
    any: false as const,
    variable: 'ALLOWED_HOSTS',
    patterns: entries.map((e) => hostPattern(e) ?? { name: '', subdomains: false }),
  });

  it('compares names as URLs have them: case, IPv6 forms, IDNA, default ports', () => {
    expect(servesHost(rule(['API.Example.com']), new URL('http://api.example.COM:1234/'))).toBe(true);
    expect(servesHost(rule(['[0::1]']), new URL('http://[::1]:8080/'))).toBe(true);
    expect(servesHost(rule(['bücher.example']), new URL('http://xn--bcher-kva.example/'))).toBe(true);
    expect(servesHost(rule(['a.example:80']), new URL('http://a.example/'))).toBe(true);
    expect(servesHost(rule(['a.example:443']), new URL('https://a.example/'))).toBe(true);
    expect(servesHost(rule(['a.example:443']), new URL('http://a.example/'))).toBe(false);
  });

  it('refuses what is not a host', () => {
    for (const entry of [
      'http://a.example',
      'a.example/x',
      'a.example?q',
      'u@a.example',
      'a.example:70000',
      '',
    ])
      expect(hostPattern(entry), entry).toBeUndefined();
  });
});
