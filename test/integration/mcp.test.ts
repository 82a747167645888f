/**
 * POST /mcp on the Node server (a process, as `npm start` runs it) against the real broker, asked by
 * the official MCP clients of each protocol era over their Streamable HTTP transports (SDK 1.x,
 * 2025-11-25; SDK 2.x pinned to 2026-07-28, stateless), with API keys and grants:
 * the tools a principal is shown, each read tool answering the same JSON as its HTTP route, a type
 * mismatch, a group outside the grants answered as missing, a write refused without its grant, and
 * a reset planned then executed with its token, read back with Kafka's Java Admin client.
 */

import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { javaAdminOffsets } from '../broker-harness/java-admin.js';
import { connectMcp, MCP_ERAS, type McpClient } from '../support/mcp-clients.js';
import { startServerProcess } from '../support/server-process.js';

vi.setConfig({ testTimeout: 120_000 });

const run = uniqueName('mcp');
const topic = `${run}-in`;
const ids = {
  live: `${run}-live`,
  // One group to reset per era: a reset moves its offsets.
  empty: { legacy: `${run}-empty`, modern: `${run}-empty-2026` },
  hidden: `hidden-${run}`,
  missing: `${run}-missing`,
};
const RECORDS = 10;
const COMMIT = 6;
const KEYS = { agent: 'mcp-agent-key-0123456789abcdef0123', reader: 'mcp-reader-key-0123456789abcdef012' };
const sha256 = (key: string) => createHash('sha256').update(key).digest('hex');
const READ_TOOLS = [
  'list_consumer_groups',
  'describe_consumer_group',
  'describe_consumer_group_lag',
  'describe_consumer_group_health',
  'diagnose_consumer_group',
  'list_topic_consumer_groups',
  'describe_cluster_protocols',
  'describe_cluster',
];
const WRITE_TOOLS = ['reset_consumer_group_offsets_dry_run', 'reset_consumer_group_offsets_execute'];

let server: ChildProcess | undefined;
let base: string;
let fixtures: RunningFixtures | undefined;
const closers: (() => Promise<void>)[] = [];

/** The HTTP route's own answer, for comparison. */
async function http(
  path: string,
  key = KEYS.agent,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(new URL(path, base), { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

interface Called {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
}

async function call(client: McpClient, name: string, args: Record<string, unknown>): Promise<Called> {
  return (await client.callTool({ name, arguments: args })) as Called;
}

beforeAll(async () => {
  const bootstrap = inject('kafkaBrokers');
  const [fx, started] = await Promise.all([
    startFixtures({
      bootstrap,
      topics: [{ name: topic, partitions: 2, records: RECORDS }],
      groups: [
        { type: 'classic', groupId: ids.live, topics: [topic], commit: COMMIT, clientId: `${run}-live` },
        { type: 'empty', groupId: ids.empty.legacy, topics: [topic], commit: COMMIT },
        { type: 'empty', groupId: ids.empty.modern, topics: [topic], commit: COMMIT },
        { type: 'empty', groupId: ids.hidden, topics: [topic], commit: COMMIT },
      ],
    }),
    startServerProcess(['--import', 'tsx', 'src/runtime/node.ts'], {
      env: {
        KAFKA_BROKERS: bootstrap,
        AUTH_API_KEYS: `agent:${sha256(KEYS.agent)},reader:${sha256(KEYS.reader)}`,
        AUTH_GRANTS: JSON.stringify({
          agent: { groups: `${run}-*`, actions: ['read', 'offsets', 'reset-offsets'] },
          reader: { groups: `${run}-*`, actions: ['read', 'offsets'] },
        }),
        RATE_LIMIT_PER_MINUTE: '0',
      },
    }),
  ]);
  fixtures = fx;
  server = started.child;
  base = started.url;
}, 300_000);

afterAll(async () => {
  await Promise.allSettled(closers.map((close) => close()));
  if (server && server.exitCode === null) server.kill('SIGKILL');
  await fixtures?.stop();
});

describe.each(MCP_ERAS)('POST /mcp on the Node server, %s', (_, era) => {
  const connect = async (key?: string) => {
    const client = await connectMcp(era, new URL('/mcp', base), { ...(key && { key }) });
    closers.push(() => client.close());
    return client;
  };
  const empty = ids.empty[era];
  it('refuses a caller without credentials with the 401 of HTTP', async () => {
    await expect(connect()).rejects.toThrow(/401|nauthorized/);
    const res = await fetch(new URL('/mcp', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(await res.json()).toMatchObject({ type: '/problems/unauthorized' });
  });

  it('lists the read tools to a reader, and the reset pair only to a principal granted reset-offsets', async () => {
    const reader = await connect(KEYS.reader);
    const agent = await connect(KEYS.agent);
    const names = async (c: McpClient) => (await c.listTools()).tools.map((t) => t.name).sort();
    expect(await names(reader)).toEqual([...READ_TOOLS].sort());
    expect(await names(agent)).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    const lag = (await agent.listTools()).tools.find((t) => t.name === 'describe_consumer_group_lag');
    // The route's own parameters: the path's groupId, the query's isolation, type and include.
    expect(lag?.inputSchema.required).toEqual(['groupId']);
    expect(Object.keys(lag?.inputSchema.properties ?? {}).sort()).toEqual([
      'groupId',
      'include',
      'isolation',
      'type',
    ]);
    expect(lag?.annotations?.readOnlyHint).toBe(true);
  });

  it('answers each read tool with the JSON of its HTTP route', async () => {
    const agent = await connect(KEYS.agent);
    const listed = await call(agent, 'list_consumer_groups', {});
    expect(listed.isError).toBeFalsy();
    const groups = (listed.structuredContent?.groups ?? []) as { groupId: string; type: string }[];
    // Only what the grants show: the group outside them is not listed.
    expect(groups.map((g) => g.groupId).sort()).toEqual(
      [ids.empty.legacy, ids.empty.modern, ids.live].sort(),
    );

    const described = await call(agent, 'describe_consumer_group', { groupId: ids.live });
    expect(described.structuredContent).toMatchObject({
      groupId: ids.live,
      type: 'classic',
      state: 'Stable',
    });
    expect(described.structuredContent).toEqual((await http(`/groups/${ids.live}`)).body);

    const lag = await call(agent, 'describe_consumer_group_lag', { groupId: ids.live, type: 'classic' });
    expect(lag.structuredContent).toEqual((await http(`/groups/${ids.live}/offsets?type=classic`)).body);
    expect(lag.structuredContent).toMatchObject({
      groupId: ids.live,
      totals: { lag: 2 * (RECORDS - COMMIT) },
    });
    expect(JSON.parse(lag.content[0]?.text ?? '')).toEqual(lag.structuredContent);

    const health = await call(agent, 'describe_consumer_group_health', { groupId: ids.live, maxLag: 1000 });
    expect(health.isError).toBeFalsy();
    expect(health.structuredContent).toMatchObject({ groupId: ids.live, type: 'classic' });
    expect(health.structuredContent?.snapshot).toEqual(expect.any(String));

    const diagnosis = await call(agent, 'diagnose_consumer_group', { groupId: ids.live });
    expect(diagnosis.isError).toBeFalsy();
    expect(diagnosis.structuredContent).toMatchObject({ groupId: ids.live, type: 'classic' });
    expect(diagnosis.structuredContent?.findings).toEqual(expect.any(Array));

    const readers = await call(agent, 'list_topic_consumer_groups', { topic });
    expect(readers.isError).toBeFalsy();
    expect(readers.structuredContent).toEqual((await http(`/topics/${topic}/groups`)).body);
    const readerIds = ((readers.structuredContent?.groups ?? []) as { groupId: string }[]).map(
      (g) => g.groupId,
    );
    // The group outside the grants reads the topic too, and is not shown.
    expect(readerIds.sort()).toEqual([ids.empty.legacy, ids.empty.modern, ids.live].sort());

    const protocols = await call(agent, 'describe_cluster_protocols', {});
    expect(protocols.isError).toBeFalsy();
    expect(protocols.structuredContent).toEqual((await http('/cluster/protocols')).body);

    const cluster = await call(agent, 'describe_cluster', {});
    type Described = { features: { finalizedEpoch: number } | null };
    const direct = (await http('/cluster')).body as Described;
    const tool = cluster.structuredContent as Described;
    // The features' epoch is the metadata log's offset, which other files' topics move on between
    // the two reads: the HTTP answer, read second, has it at least as far.
    const epochless = (d: Described) => ({
      ...d,
      features: d.features && { ...d.features, finalizedEpoch: 0 },
    });
    expect(direct.features?.finalizedEpoch ?? 0).toBeGreaterThanOrEqual(tool.features?.finalizedEpoch ?? 0);
    expect(epochless(tool)).toEqual(epochless(direct));
  });

  it('answers a type mismatch as a tool error carrying the 409 problem', async () => {
    const agent = await connect(KEYS.agent);
    const answer = await call(agent, 'describe_consumer_group', { groupId: ids.live, type: 'consumer' });
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toMatchObject({
      type: '/problems/group-type-mismatch',
      title: expect.any(String),
      status: 409,
      detail: expect.stringContaining('classic'),
      expectedType: 'consumer',
      actualType: 'classic',
    });
    expect(answer.structuredContent).toEqual((await http(`/groups/${ids.live}?type=consumer`)).body);
  });

  it('answers a group outside the grants exactly as a missing one', async () => {
    const agent = await connect(KEYS.agent);
    const hidden = await call(agent, 'describe_consumer_group_lag', { groupId: ids.hidden });
    const missing = await call(agent, 'describe_consumer_group_lag', { groupId: ids.missing });
    expect(hidden.isError).toBe(true);
    expect(hidden.structuredContent).toMatchObject({ type: '/problems/group-not-found', status: 404 });
    const shape = (p?: Record<string, unknown>) =>
      JSON.stringify(p).replaceAll(ids.hidden, 'X').replaceAll(ids.missing, 'X');
    expect(shape(hidden.structuredContent)).toBe(shape(missing.structuredContent));
  });

  it('refuses invalid arguments with the problem of the route, naming the parameter', async () => {
    const agent = await connect(KEYS.agent);
    const answer = await call(agent, 'list_consumer_groups', { limit: 0 });
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toMatchObject({
      type: '/problems/invalid-input',
      errors: [expect.objectContaining({ in: 'query', name: 'limit' })],
    });
  });

  it('refuses the reset tools to a principal without the reset-offsets grant, as HTTP does', async () => {
    const reader = await connect(KEYS.reader);
    const answer = await call(reader, 'reset_consumer_group_offsets_dry_run', {
      groupId: empty,
      type: 'classic',
      scenario: 'to-earliest',
      allTopics: true,
    });
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toMatchObject({ type: '/problems/forbidden', status: 403 });
    expect(JSON.stringify(answer)).not.toContain(KEYS.reader);
  });

  it('plans a reset with the dry run and applies exactly that plan with its token', async () => {
    const agent = await connect(KEYS.agent);
    const plan = await call(agent, 'reset_consumer_group_offsets_dry_run', {
      groupId: empty,
      type: 'classic',
      scenario: 'to-earliest',
      allTopics: true,
    });
    expect(plan.isError, JSON.stringify(plan.structuredContent)).toBeFalsy();
    expect(plan.structuredContent).toMatchObject({ status: 'planned', groupId: empty });
    const partitions = plan.structuredContent?.partitions as { current: number; target: number }[];
    expect(partitions.map((p) => [p.current, p.target])).toEqual([
      [COMMIT, 0],
      [COMMIT, 0],
    ]);
    // A dry run changes nothing.
    const before = await javaAdminOffsets({ bootstrap: inject('kafkaBrokers'), groupId: empty });
    expect([...before.committed.values()].map((c) => c.offset)).toEqual([COMMIT, COMMIT]);

    const planToken = plan.structuredContent?.planToken as string;
    const done = await call(agent, 'reset_consumer_group_offsets_execute', {
      groupId: empty,
      type: 'classic',
      planToken,
    });
    expect(done.isError, JSON.stringify(done.structuredContent)).toBeFalsy();
    expect(done.structuredContent).toMatchObject({ status: 'executed', groupId: empty });
    const after = await javaAdminOffsets({ bootstrap: inject('kafkaBrokers'), groupId: empty });
    expect(Object.fromEntries([...after.committed].map(([k, c]) => [k, c.offset]))).toEqual({
      [`${topic}:0`]: 0,
      [`${topic}:1`]: 0,
    });

    const tampered = await call(agent, 'reset_consumer_group_offsets_execute', {
      groupId: empty,
      type: 'classic',
      planToken: `${planToken.slice(0, -2)}xx`,
    });
    expect(tampered.isError).toBe(true);
    expect(tampered.structuredContent).toMatchObject({ type: '/problems/invalid-input' });
    expect(JSON.stringify(tampered)).not.toContain(planToken.slice(0, -2));
  });
});
