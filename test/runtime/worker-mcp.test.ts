/**
 * POST /mcp in the Worker as `wrangler deploy` bundles it, run in workerd (Miniflare) against the
 * real broker on 127.0.0.1, asked by the official MCP clients of each era (test/support/mcp-clients.ts):
 * the SDK's web-standard serving of both eras runs there, a tool call opens its own sockets and
 * closes them before the answer leaves, and grants scope what an agent sees.
 */

import { createHash } from 'node:crypto';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../broker-harness/fixtures.js';
import { connectMcp, MCP_ERAS, type McpClient } from '../support/mcp-clients.js';
import { type RunningWorker, startWorker } from '../support/workerd.js';

const run = uniqueName('wmcp');
const topic = `${run}-in`;
const groupId = `${run}-classic`;
const hidden = `hidden-${run}`;
const KEY = 'worker-mcp-key-0123456789abcdef0123';
let worker: RunningWorker;
let mf: Miniflare;
const clients = new Map<string, McpClient>();

/** Miniflare's fetch, as the SDK's transport calls fetch. */
const dispatch = async (url: string | URL, init?: RequestInit): Promise<Response> =>
  (await mf.dispatchFetch(String(url), init as never)) as unknown as Response;

beforeAll(async () => {
  worker = await startWorker(
    'worker-mcp',
    {
      topics: [{ name: topic, partitions: 2, records: 6 }],
      groups: [
        { type: 'empty', groupId, topics: [topic], commit: 2 },
        { type: 'empty', groupId: hidden, topics: [topic], commit: 2 },
      ],
    },
    {
      LOG_LEVEL: 'warn',
      AUTH_API_KEYS: `agent:${createHash('sha256').update(KEY).digest('hex')}`,
      AUTH_GRANTS: JSON.stringify({ agent: { groups: `${run}-*`, actions: ['read', 'offsets'] } }),
    },
  );
  mf = worker.mf;
  for (const [, era] of MCP_ERAS)
    clients.set(era, await connectMcp(era, new URL('http://localhost/mcp'), { fetch: dispatch, key: KEY }));
}, 300_000);

afterAll(async () => {
  await Promise.allSettled([...clients.values()].map((c) => c.close()));
  await worker?.close();
});

describe.each(MCP_ERAS)('POST /mcp in workerd, %s', (_, era) => {
  const client = () => clients.get(era) as McpClient;
  it('lists the read tools, no write tool without the grant', async () => {
    const names = (await client().listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual([
      'describe_cluster',
      'describe_cluster_protocols',
      'describe_consumer_group',
      'describe_consumer_group_health',
      'describe_consumer_group_lag',
      'diagnose_consumer_group',
      'list_consumer_groups',
      'list_topic_consumer_groups',
    ]);
  });

  it('answers a tool call from the broker, and a group outside the grants as missing', async () => {
    const lag = (await client().callTool({
      name: 'describe_consumer_group_lag',
      arguments: { groupId },
    })) as {
      isError?: boolean;
      structuredContent?: Record<string, unknown>;
    };
    expect(lag.isError, JSON.stringify(lag.structuredContent)).toBeFalsy();
    expect(lag.structuredContent).toMatchObject({ groupId, type: 'classic', totals: { lag: 2 * (6 - 2) } });
    const outside = (await client().callTool({
      name: 'describe_consumer_group',
      arguments: { groupId: hidden },
    })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
    expect(outside.isError).toBe(true);
    expect(outside.structuredContent).toMatchObject({ type: '/problems/group-not-found', status: 404 });
  });
});

describe('POST /mcp in workerd, a tool call on 2025-06-18', () => {
  it('closes every socket a tool call opened before the answer leaves', async () => {
    const res = await dispatch('http://localhost/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEY}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'describe_cluster', arguments: {} },
      }),
    });
    const body = (await res.json()) as { result?: { structuredContent?: { clusterId?: string } } };
    expect(res.status).toBe(200);
    expect(body.result?.structuredContent?.clusterId).toEqual(expect.any(String));
    const match = /^opened=(\d+), closed=(\d+), peak=(\d+)$/.exec(
      res.headers.get('x-kafka-connections') ?? '',
    );
    expect(match, 'x-kafka-connections').not.toBeNull();
    const [, opened, closed, peak] = (match as RegExpExecArray).map(Number);
    expect(opened).toBeGreaterThanOrEqual(1);
    expect(closed).toBe(opened);
    expect(peak).toBeLessThanOrEqual(5);
  });
});
