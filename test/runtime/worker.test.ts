/**
 * The Worker as `wrangler deploy` bundles it, run locally in workerd (Miniflare), answering from
 * the real broker on 127.0.0.1 (allowed locally; production refuses private addresses). Each
 * response says how many sockets its request opened and closed (`x-kafka-connections`): every
 * request must open its own and close them all before answering, within the cap of 5.
 */

import { readFile } from 'node:fs/promises';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../broker-harness/fixtures.js';
import { type RunningWorker, startWorker } from '../support/workerd.js';

const run = uniqueName('worker');
const groupId = `${run}-classic`;
let worker: RunningWorker;
let mf: Miniflare;

interface Connections {
  opened: number;
  closed: number;
  peak: number;
}

function connectionsOf(res: Response): Connections {
  const header = res.headers.get('x-kafka-connections') ?? '';
  const match = /^opened=(\d+), closed=(\d+), peak=(\d+)$/.exec(header);
  if (!match) throw new Error(`no x-kafka-connections header: '${header}'`);
  return { opened: Number(match[1]), closed: Number(match[2]), peak: Number(match[3]) };
}

async function get(path: string) {
  const res = await mf.dispatchFetch(`http://localhost${path}`);
  const text = await res.text();
  return { res, text, connections: connectionsOf(res as unknown as Response) };
}

beforeAll(async () => {
  worker = await startWorker(
    'worker',
    {
      topics: [{ name: `${run}-events`, partitions: 2, records: 4 }],
      groups: [{ type: 'classic', groupId, topics: [`${run}-events`] }],
    },
    {
      LOG_LEVEL: 'warn',
      AUTH: 'none',
      // Event streams short enough to read whole: a poll every 300 ms, the end after 2 s.
      EVENTS_MIN_POLL_INTERVAL_MS: '200',
      EVENTS_POLL_INTERVAL_MS: '300',
      EVENTS_MAX_LIFETIME_MS: '2000',
    },
  );
  mf = worker.mf;
});

afterAll(async () => {
  await worker?.close();
});

describe('the Worker in workerd', () => {
  // Cloudflare counts a Worker's size compressed: 3 MB on the free plan. A third of that leaves
  // room to grow. The raw bound (what workerd parses at every cold isolate) only catches a
  // dependency pulled in whole by mistake, such as AWS's SDK. 955,031 B with stand-ins for zod's
  // locales, kafkajs's requests and the MCP SDK 1.x's validator; 1,564,412 B, 410 KiB gzipped, with
  // every dependency as published (MCP SDK 2.x's server, both eras).
  it('is bundled under 2 MB raw and under 1 MB gzipped (a third of the free plan limit)', () => {
    const { bytes, gzipBytes } = worker.bundle;
    expect(bytes).toBeGreaterThan(100_000);
    expect(bytes).toBeLessThanOrEqual(2_000_000);
    expect(gzipBytes).toBeLessThan(1_000_000);
  });

  // wrangler wraps every named function and class in a call restoring its name (some 45 KB);
  // wrangler.toml's `keep_names = false` leaves them out. The helper they call, minified:
  // `(t,e)=>Object.defineProperty(t,"name",{value:e,configurable:!0})`.
  it('carries no name-keeping wrappers', async () => {
    const script = await readFile(worker.scriptPath, 'utf8');
    expect(script).not.toMatch(/"name",\{value:[A-Za-z_$][\w$]*,configurable:!0\}/);
  });

  it('answers GET /groups twice in a row, each request opening and closing its own sockets', async () => {
    for (let i = 0; i < 2; i++) {
      const { res, text, connections } = await get(`/groups?prefix=${run}`);
      expect(res.status).toBe(200);
      const body = JSON.parse(text) as { groups: Array<Record<string, unknown>>; failures: unknown[] };
      expect(body.groups).toContainEqual(
        expect.objectContaining({ groupId, type: 'classic', state: 'Stable' }),
      );
      expect(body.failures).toEqual([]);
      expect(connections.opened, `request ${i + 1} opened its own`).toBeGreaterThanOrEqual(1);
      expect(connections.closed).toBe(connections.opened);
      expect(connections.peak).toBeLessThanOrEqual(5);
    }
  });

  it('negotiates in the bundle: JSON on a tie, NDJSON when preferred, 406 otherwise; every answer links the document', async () => {
    const answer = async (accept: string) => {
      const res = await mf.dispatchFetch(`http://localhost/groups?prefix=${run}`, { headers: { accept } });
      await res.text();
      return [res.status, res.headers.get('content-type')?.split(';')[0], res.headers.get('link')];
    };
    const link = '</openapi.json>; rel="service-desc"';
    expect(await answer('application/json, application/x-ndjson')).toEqual([200, 'application/json', link]);
    expect(await answer('application/x-ndjson')).toEqual([200, 'application/x-ndjson', link]);
    expect(await answer('text/html')).toEqual([406, 'application/problem+json', link]);
  });

  it('answers GET /groups/{id} twice in a row, nothing carried over', async () => {
    for (let i = 0; i < 2; i++) {
      const { res, text, connections } = await get(`/groups/${encodeURIComponent(groupId)}`);
      expect(res.status).toBe(200);
      expect(JSON.parse(text)).toMatchObject({
        type: 'classic',
        groupId,
        state: 'Stable',
        protocolType: 'consumer',
      });
      expect(connections.opened).toBeGreaterThanOrEqual(1);
      expect(connections.closed).toBe(connections.opened);
      expect(connections.peak).toBeLessThanOrEqual(5);
    }
  });

  it("streams a group's events over the request's own sockets until the stream's lifetime ends", async () => {
    const res = await mf.dispatchFetch(`http://localhost/groups/${groupId}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text).toMatch(/^event: group$/m);
    expect(text).toMatch(/^event: lag$/m);
    expect(text).toMatch(/^event: end\ndata: .*\nretry: 1000$/m);
    // The next request is served as before, with its own sockets.
    const after = await get(`/groups/${groupId}`);
    expect(after.res.status).toBe(200);
    expect(after.connections.closed).toBe(after.connections.opened);
  });

  it('answers a missing group with a problem+json 404, its sockets closed too', async () => {
    const { res, text, connections } = await get(`/groups/${run}-missing`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(JSON.parse(text)).toMatchObject({ type: '/problems/group-not-found', groupId: `${run}-missing` });
    expect(connections.closed).toBe(connections.opened);
  });

  it('serves the docs page with Swagger UI from the public CDN, opening no socket', async () => {
    const { res, text, connections } = await get('/docs');
    expect(res.status).toBe(200);
    expect(text).toContain('https://cdn.jsdelivr.net/npm/swagger-ui-dist@');
    expect(connections).toEqual({ opened: 0, closed: 0, peak: 0 });
  });

  it('refuses TLS options the runtime cannot honour with a 500 naming them', async () => {
    await worker.rebind({ AUTH: 'none', KAFKA_SSL_CA: '-----BEGIN CERTIFICATE-----' });
    const res = await mf.dispatchFetch('http://localhost/groups');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as { type: string; detail: string };
    expect(body.type).toBe('/problems/configuration-error');
    expect(body.detail).toContain('KAFKA_SSL_CA');
    expect(body.detail).not.toContain('BEGIN CERTIFICATE');
  });

  it("refuses Amazon MSK IAM with a 500 naming it (AWS's signer is not in the bundle), any cluster", async () => {
    const bundle = await readFile(worker.scriptPath, 'utf8');
    expect(bundle).not.toContain('aws-msk-iam-sasl-signer-js');
    expect(bundle).not.toContain('kafka-cluster:Connect');
    await worker.rebind({
      AUTH: 'none',
      KAFKA_CLUSTERS: 'eu-west',
      KAFKA_CLUSTER_EU_WEST_BROKERS: 'b-1.example.com:9098',
      KAFKA_CLUSTER_EU_WEST_SASL_MECHANISM: 'aws-msk-iam',
      KAFKA_CLUSTER_EU_WEST_SASL_AWS_REGION: 'eu-west-1',
    });
    const res = await mf.dispatchFetch('http://localhost/groups');
    expect(res.status).toBe(500);
    const body = (await res.json()) as { type: string; detail: string };
    expect(body.type).toBe('/problems/configuration-error');
    expect(body.detail).toContain('KAFKA_CLUSTER_EU_WEST_SASL_MECHANISM');
    expect(body.detail).toContain('aws-msk-iam is not available on Cloudflare Workers');
  });
});
