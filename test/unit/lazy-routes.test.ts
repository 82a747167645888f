/**
 * Route modules loaded on first use (src/routes/lazy.ts) answer as if registered at start: the
 * routes a start registers for them (method, path, grant policy), the short ones and every mirror,
 * are those the modules register; and the same requests get the same answers (status, headers that
 * matter, body) from an app whose modules load lazily as from one that registered them at once.
 * The group service is a stand-in that fails every call, so no broker is needed.
 */

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { GroupService } from '../../src/groups/service.js';
import { policyOf } from '../../src/http/route-policy.js';
import { securityFrom } from '../../src/http/security.js';
import { LAZY_MODULES } from '../../src/routes/lazy-modules.js';

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

const stub = new Proxy({} as GroupService, {
  get: (_target, name) => (name === 'then' ? undefined : () => Promise.reject(new Error('stand-in service'))),
});
const other = new Proxy({} as GroupService, {
  get: (_target, name) => (name === 'then' ? undefined : () => Promise.reject(new Error('other cluster'))),
});

function appWith(eagerRoutes: boolean): ReturnType<typeof createApp> {
  const config = loadConfig({
    KAFKA_BROKERS: '127.0.0.1:9',
    AUTH_API_KEYS: ['reader', 'all'].map((name) => `${name}:${hashOf(`${name}-key`)}`).join(','),
    AUTH_GRANTS: JSON.stringify({
      reader: { groups: '*', actions: ['read'] },
      all: {
        groups: '*',
        actions: [
          'read',
          'offsets',
          'configs',
          'delete',
          'delete-offsets',
          'reset-offsets',
          'remove-members',
        ],
      },
    }),
    RATE_LIMIT_PER_MINUTE: '0',
    WRITES: 'enabled',
  });
  return createApp({
    service: stub,
    security: securityFrom(config),
    clusters: {
      defaultAlias: 'default',
      list: [
        { alias: 'default', service: stub },
        { alias: 'second', service: other },
      ],
    },
    eagerRoutes,
  });
}

/** Each route's method, path and policy, in registration order. */
function routeTable(app: ReturnType<typeof createApp>): string[] {
  return app.routes.flatMap((r) => {
    const policy = policyOf(r.handler);
    return policy ? [`${r.method} ${r.path} ${JSON.stringify(policy)}`] : [];
  });
}

await Promise.all(LAZY_MODULES.map((m) => m.load()));
const eager = appWith(true);

describe('route modules loaded on first use', () => {
  it('register at start the routes and policies the modules register', () => {
    const lazy = appWith(false);
    expect(routeTable(lazy)).toEqual(routeTable(eager));
    expect(routeTable(lazy).length).toBeGreaterThan(40);
  });

  const requests: [string, RequestInit?][] = [
    ['/groups?limit=0&state=bogus'],
    ['/groups?include=details', { headers: { accept: 'application/x-ndjson' } }],
    ['/groups?topic=t&include=details'],
    ['/groups'],
    ['/groups.ndjson?type=bogus'],
    ['/groups.ndjson'],
    ['/clusters/second/groups?cursor=nope'],
    ['/clusters/second/groups.ndjson', { method: 'POST' }],
    ['/groups/g1/offsets?isolation=bogus'],
    ['/groups/g1/offsets'],
    ['/clusters/second/groups/g1/offsets'],
    ['/groups/g1/configs'],
    ['/groups/g1/configs', { method: 'PATCH', body: '{"set":{"consumer.session.timeout.ms":"x"}}' }],
    ['/groups/g1/configs', { method: 'PATCH', body: 'not json' }],
    ['/groups/g1/health?lagWarn=-1'],
    ['/groups/g1/health'],
    ['/metrics?granularity=bogus'],
    ['/metrics'],
    ['/clusters/second/metrics'],
    ['/groups/g1?type=classic&dryRun=false', { method: 'DELETE' }],
    ['/groups/g1', { method: 'DELETE' }],
    ['/groups/g1/offsets?topic=t&type=consumer', { method: 'DELETE' }],
    ['/groups/g1/members/i1?type=classic', { method: 'DELETE' }],
    ['/groups/g1/members/remove', { method: 'POST', body: '{"type":"classic","instanceIds":[]}' }],
    ['/groups/g1/offsets/reset', { method: 'POST', body: '{"type":"consumer","to":{"bogus":1}}' }],
    ['/groups/g1/offsets/reset', { method: 'POST', body: '{}' }],
    ['/groups/g1/offsets/reset', { method: 'PUT', body: '{}' }],
    ['/clusters/second/groups/g1/offsets/reset', { method: 'POST', body: '{}' }],
  ];

  it.each(['reader-key', 'all-key'])('answer as the modules registered at start do (%s)', async (key) => {
    const lazy = appWith(false);
    for (const [path, init = {}] of requests) {
      const ask = async (app: ReturnType<typeof createApp>) => {
        const res = await app.request(path, {
          ...init,
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            ...(init.headers as Record<string, string> | undefined),
          },
        });
        return {
          path,
          method: init.method ?? 'GET',
          status: res.status,
          type: res.headers.get('content-type'),
          allow: res.headers.get('allow'),
          vary: res.headers.get('vary'),
          body: await res.text(),
        };
      };
      const answer = await ask(lazy);
      expect(answer).toEqual(await ask(eager));
    }
  });

  it('build the same document as the modules registered at start', async () => {
    const lazy = (await (await appWith(false).request('/openapi.json')).json()) as { paths: object };
    const whole = await (await eager.request('/openapi.json')).json();
    expect(lazy).toEqual(whole);
    expect(Object.keys(lazy.paths)).toContain('/groups/{groupId}/offsets/reset');
  });
});
