/**
 * The whole listing in one request: GET /groups.ndjson (streamGroups), and GET /groups with
 * Accept: application/x-ndjson, over real groups
 * (Empty classic groups made by offset commits with Kafka's Admin client). Every line is checked
 * against the line schema the OpenAPI document publishes.
 */

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { ErrorCode } from '../../src/broker/protocol/errors.js';
import { ApiKey } from '../../src/broker/protocol/index.js';
import { loadConfig } from '../../src/config.js';
import type { GroupListing } from '../../src/groups/model.js';
import { securityFrom } from '../../src/http/security.js';
import { encodeCursor } from '../../src/routes/paging.js';
import { createService } from '../../src/wiring.js';
import { uniqueName } from '../broker-harness/fixtures.js';
import type { TestApp } from '../support/app.js';
import { appWithGroups } from '../support/app-with-groups.js';
import { reply, StandInBroker } from '../support/stand-in-broker.js';

const run = uniqueName('nd');
const COUNT = 600;
// Pairs of ids that differ only in '～' (U+FF5E) against '🎉' (U+1F389): UTF-8 byte order puts '～'
// first, JavaScript's default string order '🎉', so "sorted" means Kafka's order, not an accident.
const groupIds = Array.from(
  { length: COUNT },
  (_, i) => `${run}-${String(i >> 1).padStart(4, '0')}${i % 2 ? '～' : '🎉'}`,
);
const utf8 = new TextEncoder();
const byBytes = (a: string, b: string) => Buffer.compare(utf8.encode(a), utf8.encode(b));
const NDJSON = 'application/x-ndjson';

let validateLine: (line: unknown) => boolean;

type Line =
  | GroupListing
  | { failure: { broker: { nodeId: number }; error: { name: string } } }
  | { end: { groups: number; failures: number } };

const t = appWithGroups({
  topics: [{ name: `${run}-t`, partitions: 1, records: 1 }],
  groups: groupIds.map((groupId) => ({ type: 'empty' as const, groupId, topics: [`${run}-t`], commit: 1 })),
  readyTimeoutMs: 300_000,
  timeoutMs: 330_000,
  afterStart: (app) => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(app.checker.document as object, 'openapi.json');
    const schema =
      'openapi.json#/paths/~1groups.ndjson/get/responses/200/content/application~1x-ndjson/schema';
    validateLine = ajv.compile({ $ref: schema });
  },
});

async function ndjson(app: TestApp['app'], path: string): Promise<{ status: number; lines: Line[] }> {
  const res = await app.request(path, { headers: { accept: NDJSON } });
  expect(res.headers.get('content-type')).toBe(NDJSON);
  const text = await res.text();
  expect(text.endsWith('\n')).toBe(true);
  const lines = text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
  for (const line of lines) expect(validateLine(line), JSON.stringify(line)).toBe(true);
  return { status: res.status, lines };
}

const groupsOf = (lines: Line[]) => lines.filter((l): l is GroupListing => 'groupId' in l);

describe('GET /groups as application/x-ndjson', () => {
  it('streams every group exactly once, sorted in UTF-8 byte order, and ends with a count', async () => {
    const { status, lines } = await ndjson(t.app, `/groups?prefix=${encodeURIComponent(run)}`);
    expect(status).toBe(200);
    const ids = groupsOf(lines).map((g) => g.groupId);
    expect(ids).toEqual([...groupIds].sort(byBytes));
    expect(ids).not.toEqual([...groupIds].sort());
    expect(groupsOf(lines)[0]).toMatchObject({ type: 'classic', protocolType: '', state: 'Empty' });
    expect(lines.at(-1)).toEqual({ end: { groups: COUNT, failures: 0 } });
    expect(lines.filter((l) => 'failure' in l)).toEqual([]);
  });

  it('applies the filters, and starts after a cursor', async () => {
    const some = await ndjson(
      t.app,
      `/groups?prefix=${encodeURIComponent(`${run}-01`)}&type=classic&state=empty`,
    );
    expect(groupsOf(some.lines).map((g) => g.groupId)).toEqual(
      groupIds.filter((id) => id.startsWith(`${run}-01`)).sort(byBytes),
    );
    const none = await ndjson(t.app, `/groups?prefix=${encodeURIComponent(run)}&state=Stable`);
    expect(none.lines).toEqual([{ end: { groups: 0, failures: 0 } }]);
    const sorted = [...groupIds].sort(byBytes);
    const after = await ndjson(
      t.app,
      `/groups?prefix=${encodeURIComponent(run)}&cursor=${encodeCursor(sorted[449] as string)}`,
    );
    expect(groupsOf(after.lines).map((g) => g.groupId)).toEqual(sorted.slice(450));
  });

  it('is its own operation: GET /groups.ndjson streams the same lines, with no Accept at all', async () => {
    const query = `?prefix=${encodeURIComponent(`${run}-02`)}&type=classic`;
    const own = await t.app.request(`/groups.ndjson${query}`);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe(NDJSON);
    const negotiated = await t.app.request(`/groups${query}`, { headers: { accept: NDJSON } });
    const text = await own.text();
    expect(text).toBe(await negotiated.text());
    expect(text.split('\n').filter(Boolean)).toHaveLength(200 + 1);
    const mirrored = await t.app.request(`/clusters/default/groups.ndjson${query}`);
    expect(await mirrored.text()).toBe(text);
  });

  it('GET /groups.ndjson takes no page parameters: limit is an unknown parameter there', async () => {
    const res = await t.app.request('/groups.ndjson?limit=10');
    expect(res.status).toBe(400);
    const problem = (await t.checker.check('get', '/groups.ndjson', res)) as { errors: { name: string }[] };
    expect(problem.errors.map((e) => e.name)).toEqual(['limit']);
  });

  it('refuses limit and include=details, which are for pages, naming them', async () => {
    const res = await t.app.request(`/groups?limit=10&include=details`, { headers: { accept: NDJSON } });
    expect(res.status).toBe(400);
    const problem = (await t.checker.check('get', '/groups', res)) as { errors: { name: string }[] };
    expect(problem.errors.map((e) => e.name)).toEqual(['limit', 'include']);
  });

  it('still answers pages as JSON to every other Accept', async () => {
    const page = await t.get<{ groups: GroupListing[] }>(
      `/groups?prefix=${encodeURIComponent(run)}&limit=5`,
      '/groups',
    );
    expect(page.body.groups.map((g) => g.groupId)).toEqual([...groupIds].sort(byBytes).slice(0, 5));
  });

  it("stand-in: a broker whose ListGroups fails is reported in-band, the real broker's groups all follow", async () => {
    // The stand-in is the bootstrap: its Metadata names itself and the real broker, and its own
    // ListGroups fails. The real broker's groups must all be there, with the failure named.
    const standIn = await StandInBroker.start();
    const [host, port] = t.bootstrap.split(':') as [string, string];
    // A stand-in of the real broker's cluster: every connection proves its cluster (cluster-pin.ts).
    const { clusterId } = (await (await t.app.request('/cluster')).json()) as { clusterId: string };
    standIn.otherwise(ApiKey.Metadata, (call) =>
      reply.response({
        throttleTimeMs: 0,
        brokers: [
          { nodeId: 1, host, port: Number(port), rack: null },
          { nodeId: 1000, host: standIn.host, port: standIn.port, rack: null },
        ],
        ...(call.version >= 2 && { clusterId }),
        ...(call.version >= 1 && { controllerId: 1 }),
        topics: [],
      }),
    );
    // Not an error that settles by itself (those are asked again within the deadline): one call.
    standIn.otherwise(ApiKey.ListGroups, reply.error(ErrorCode.UNKNOWN_SERVER_ERROR));
    const config = loadConfig({ KAFKA_BROKERS: standIn.address, AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' });
    const service = createService(config);
    try {
      const app = createApp({ service: service.groups, security: securityFrom(config) });
      const { status, lines } = await ndjson(app, `/groups?prefix=${encodeURIComponent(run)}`);
      expect(status).toBe(200);
      expect(lines[0]).toMatchObject({
        failure: {
          broker: { nodeId: 1000, host: standIn.host, port: standIn.port },
          error: { kafkaError: { code: ErrorCode.UNKNOWN_SERVER_ERROR } },
        },
      });
      expect(groupsOf(lines).map((g) => g.groupId)).toEqual([...groupIds].sort(byBytes));
      expect(lines.at(-1)).toEqual({ end: { groups: COUNT, failures: 1 } });
      expect(standIn.count(ApiKey.ListGroups)).toBe(1);
      expect(standIn.problems).toEqual([]);
    } finally {
      await service.close();
      await standIn.stop();
    }
  });
});
