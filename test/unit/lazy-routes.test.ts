/**
 * Route modules loaded on first use (src/routes/lazy.ts) answer as if registered at start: the
 * routes a start registers for them (method, path, grant policy), the short ones and every mirror,
 * are those the modules register; and the same requests get the same answers (status, headers that
 * matter, body) from an app whose modules load lazily as from one that registered them at once.
 * The default cluster's stand-in service lists nine groups (pages, their links and cursors, and the
 * NDJSON stream) and fails every other call; the second cluster's fails every call. No broker.
 */

import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { listingAt, selectRows, sortRows } from '../../src/groups/listed-rows.js';
import type { BrokerFailure } from '../../src/groups/model.js';
import type { GroupService } from '../../src/groups/service.js';
import { policyOf } from '../../src/http/route-policy.js';
import { securityFrom } from '../../src/http/security.js';
import { LAZY_MODULES } from '../../src/routes/lazy-modules.js';
import { decodePageCursor } from '../../src/routes/paging.js';
import { stableClassicTable } from '../support/listing-table.js';
import { standInService } from '../support/stand-in-app.js';

type App = ReturnType<typeof createApp>;

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

const IDS = ['g-5', 'g-2', 'g-9', 'g-1', 'g-7', 'g-3', 'g-8', 'g-4', 'g-6'];
/** The brokers' answer, as the listing holds it. */
const table = stableClassicTable(IDS);
const failure: BrokerFailure = {
  broker: { nodeId: 2, host: 'b2', port: 9092 },
  error: { name: 'BrokerUnavailableError', message: 'connection refused' },
};
const stub = standInService({
  listUnsorted: async () => ({
    groups: [...selectRows(table, {})].map((row) => listingAt(table, row)),
    failures: [failure],
  }),
  listRows: async () => {
    const listed = { table, rows: selectRows(table, {}) };
    sortRows(listed);
    return { listed, failures: [failure] };
  },
});
const other = new Proxy({} as GroupService, {
  get: (_target, name) => (name === 'then' ? undefined : () => Promise.reject(new Error('other cluster'))),
});

/** What an app is made from: this test's modules, or those of a module graph of its own. */
const MODULES = { createApp, loadConfig, securityFrom };

function appWith(eagerRoutes: boolean, { createApp, loadConfig, securityFrom } = MODULES): App {
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
function routeTable(app: App): string[] {
  return app.routes.flatMap((r) => {
    const policy = policyOf(r.handler);
    return policy ? [`${r.method} ${r.path} ${JSON.stringify(policy)}`] : [];
  });
}

interface Answer {
  path: string;
  method: string;
  status: number;
  type: string | null;
  allow: string | null;
  vary: string | null;
  link: string | null;
  body: string;
  /** The page's next cursor as given; `body` and `link` name it by what it points after. */
  nextCursor?: string | null;
}

/**
 * `path` asked of `app` as `key`. A held listing's id is random, so a page's cursor is written,
 * wherever it appears, as what it points after and whether it names a held listing.
 */
async function ask(app: App, key: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await app.request(path, {
    ...init,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  let body = await res.text();
  let link = res.headers.get('link');
  let nextCursor: string | null | undefined;
  if (res.headers.get('content-type')?.startsWith('application/json') && body.includes('"nextCursor"')) {
    nextCursor = (JSON.parse(body) as { nextCursor: string | null }).nextCursor;
    if (nextCursor) {
      const cursor = decodePageCursor(nextCursor);
      const named = `<after ${cursor?.after}${cursor?.snapshot === undefined ? '' : ', held'}>`;
      body = body.replaceAll(nextCursor, named);
      link = link?.replaceAll(nextCursor, named) ?? null;
    }
  }
  return {
    path,
    method: init.method ?? 'GET',
    status: res.status,
    type: res.headers.get('content-type'),
    allow: res.headers.get('allow'),
    vary: res.headers.get('vary'),
    link,
    body,
    ...(nextCursor !== undefined && { nextCursor }),
  };
}

/** The answer with what it asked for, as two apps give it: the cursor is each app's own. */
const comparable = ({ nextCursor: _, ...answer }: Answer) => answer;

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
    ['/groups?limit=4'],
    ['/groups?limit=2&type=classic'],
    ['/groups', { method: 'HEAD' }],
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
    const statuses = new Map<string, number>();
    for (const [path, init] of requests) {
      const answer = comparable(await ask(lazy, key, path, init));
      expect(answer).toEqual(comparable(await ask(eager, key, path, init)));
      statuses.set(`${answer.method} ${path}`, answer.status);
    }
    // The listing's pages and stream are answered, not refused.
    for (const path of ['/groups', '/groups?limit=4', '/groups?limit=2&type=classic', '/groups.ndjson']) {
      expect(statuses.get(`GET ${path}`)).toBe(200);
    }
    expect(statuses.get('HEAD /groups')).toBe(200);
  });

  it('list the groups page by page as the modules registered at start do', async () => {
    const lazy = appWith(false);
    const pages: Answer[] = [];
    // Each app follows its own cursors: the held listing a cursor names is that app's.
    let lazyPath: string | undefined = '/groups?limit=4';
    let eagerPath: string | undefined = lazyPath;
    while (lazyPath && eagerPath) {
      const lazyPage: Answer = await ask(lazy, 'reader-key', lazyPath);
      const eagerPage: Answer = await ask(eager, 'reader-key', eagerPath);
      expect({ ...comparable(lazyPage), path: 'followed' }).toEqual({
        ...comparable(eagerPage),
        path: 'followed',
      });
      pages.push(lazyPage);
      lazyPath = lazyPage.nextCursor ? `/groups?limit=4&cursor=${lazyPage.nextCursor}` : undefined;
      eagerPath = eagerPage.nextCursor ? `/groups?limit=4&cursor=${eagerPage.nextCursor}` : undefined;
    }
    expect(lazyPath).toBe(eagerPath);
    expect(pages.map((page) => page.status)).toEqual([200, 200, 200]);
    expect(pages[0]?.link).toMatch(/<after g-4, held>.*rel="next"/);
    const listed = pages.flatMap(
      (page) => (JSON.parse(page.body) as { groups: { groupId: string }[] }).groups,
    );
    expect(listed.map((g) => g.groupId)).toEqual([...IDS].sort());
  });

  it('stream the groups as NDJSON as the modules registered at start do', async () => {
    const lazy = appWith(false);
    for (const [path, init] of [
      ['/groups.ndjson', {}],
      ['/groups', { headers: { accept: 'application/x-ndjson' } }],
    ] as const) {
      const answer = await ask(lazy, 'reader-key', path, init);
      expect(answer).toEqual(await ask(eager, 'reader-key', path, init));
      expect(answer.status).toBe(200);
      // The short path's stream is chosen by Accept, and says so.
      if (path === '/groups') expect(answer.vary).toContain('accept');
      const lines = answer.body.trim().split('\n');
      expect(lines.filter((line) => line.includes('"groupId"'))).toHaveLength(IDS.length);
      expect(answer.body).toContain('connection refused');
    }
  });

  it('answer two requests arriving together on a module not yet loaded as those registered at start', async () => {
    // A module graph of its own: its lazy modules have loaded nothing yet.
    vi.resetModules();
    const fresh = {
      createApp: (await import('../../src/app.js')).createApp,
      loadConfig: (await import('../../src/config.js')).loadConfig,
      securityFrom: (await import('../../src/http/security.js')).securityFrom,
    };
    const freshModules = (await import('../../src/routes/lazy-modules.js')).LAZY_MODULES;
    const lazy = appWith(false, fresh);
    const both = await Promise.all([
      ask(lazy, 'reader-key', '/groups?limit=4'),
      ask(lazy, 'reader-key', '/groups.ndjson'),
      ask(lazy, 'reader-key', '/groups?limit=4'),
    ]);
    expect(both.map(comparable)).toEqual([
      comparable(await ask(eager, 'reader-key', '/groups?limit=4')),
      comparable(await ask(eager, 'reader-key', '/groups.ndjson')),
      comparable(await ask(eager, 'reader-key', '/groups?limit=4')),
    ]);
    expect(both.map((answer) => answer.status)).toEqual([200, 200, 200]);
    // The fresh graph's listing module was the one loaded, not this test's.
    expect(freshModules).not.toBe(LAZY_MODULES);
  });

  it('build the same document as the modules registered at start', async () => {
    const lazy = (await (await appWith(false).request('/openapi.json')).json()) as { paths: object };
    const whole = await (await eager.request('/openapi.json')).json();
    expect(lazy).toEqual(whole);
    expect(Object.keys(lazy.paths)).toContain('/groups/{groupId}/offsets/reset');
  });
});
