/**
 * `npx tsx scripts/record-answers.ts <out-file>`: records what the server answers to a fixed list of
 * requests covering every route, so that a change meant to keep behaviour (a move, a split, a
 * rename) can be shown to keep it: record before, record after, `diff` the two files.
 *
 * It starts a real Kafka broker (or uses KAFKA_BROKERS), makes groups of every type with Kafka's own
 * Java clients (test/broker-harness/fixtures.ts), starts the Node server (src/runtime/node.ts, as `npm start`
 * does, so the script does not depend on how src/ is laid out inside) on a free loopback port, and
 * writes one block per request: method, path, status, content type and body. Values that change
 * from run to run (times, durations, member and cluster ids, ports, tokens, cursors, ages) are
 * masked; everything else is kept byte for byte. `<out-file>.raw.json` keeps the unmasked answers.
 *
 * Only dry runs and refusals among the writes: nothing in the recorded groups changes.
 */

import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { type RunningBroker, startBroker } from '../test/broker-harness/broker.js';
import { startFixtures } from '../test/broker-harness/fixtures.js';

const TOPIC = 'rec-events';
const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: tsx scripts/record-answers.ts <out-file> | --remask <raw.json> <out-file>\n');
  process.exit(2);
}
const progress = (message: string) => process.stderr.write(`# ${message}\n`);

interface Request {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const json = { 'content-type': 'application/json' };
const body = (value: unknown) => JSON.stringify(value);

const TYPED = [
  ['rec-classic', 'classic'],
  ['rec-static', 'classic'],
  ['rec-empty', 'classic'],
  ['rec-consumer', 'consumer'],
  ['rec-share', 'share'],
  ['rec-streams', 'streams'],
] as const;

function requests(): Request[] {
  const list: Request[] = [
    { method: 'GET', path: '/healthz' },
    { method: 'GET', path: '/readyz' },
    { method: 'GET', path: '/openapi.json' },
    { method: 'GET', path: '/docs' },
    { method: 'GET', path: '/cluster' },
    { method: 'GET', path: '/clusters' },
    { method: 'GET', path: '/clusters/second' },
    { method: 'GET', path: '/clusters/second/groups?prefix=rec-' },
    { method: 'GET', path: '/clusters/second/groups/rec-classic' },
    { method: 'GET', path: '/clusters/nowhere/groups' },
    { method: 'GET', path: '/groups?prefix=rec-' },
    { method: 'GET', path: '/groups?prefix=rec-&type=classic' },
    { method: 'GET', path: '/groups?prefix=rec-&type=consumer,share&state=Stable' },
    { method: 'GET', path: '/groups?prefix=rec-&include=details' },
    { method: 'GET', path: '/groups?prefix=rec-&limit=2' },
    { method: 'GET', path: '/groups?prefix=rec-', headers: { accept: 'application/x-ndjson' } },
    { method: 'GET', path: '/groups?prefix=rec-&limit=2', headers: { accept: 'application/x-ndjson' } },
  ];
  for (const [id, type] of TYPED) {
    list.push({ method: 'GET', path: `/groups/${id}` });
    list.push({ method: 'GET', path: `/groups/${id}?type=${type}` });
    list.push({ method: 'GET', path: `/groups/${id}/offsets` });
    list.push({ method: 'GET', path: `/groups/${id}/offsets?type=${type}` });
    list.push({ method: 'GET', path: `/groups/${id}/health` });
  }
  list.push(
    { method: 'GET', path: '/groups/rec-classic?type=consumer' },
    { method: 'GET', path: '/groups/rec-share/offsets?type=streams' },
    { method: 'GET', path: '/groups/no-such-group' },
    { method: 'GET', path: '/groups/no-such-group/offsets' },
    { method: 'GET', path: '/groups/no-such-group/health' },
    { method: 'GET', path: '/groups/rec%20classic%2Fslash' },
    { method: 'GET', path: '/groups?limit=abc' },
    { method: 'GET', path: '/groups?limit=0' },
    { method: 'GET', path: '/groups?type=bogus' },
    { method: 'GET', path: '/groups?state=Sleeping' },
    { method: 'GET', path: '/groups?cursor=not-a-cursor' },
    { method: 'GET', path: '/groups?unknown=1' },
    { method: 'GET', path: '/groups/rec-classic?type=bogus' },
    { method: 'GET', path: '/groups/rec-classic/offsets?since=garbage' },
    { method: 'GET', path: '/no/such/route' },
    { method: 'PUT', path: '/groups' },
    {
      method: 'POST',
      path: '/groups/describe',
      headers: json,
      body: body({ groupIds: ['rec-classic', 'rec-consumer', 'rec-share', 'rec-streams', 'no-such-group'] }),
    },
    {
      method: 'POST',
      path: '/groups/describe',
      headers: json,
      body: body({ groupIds: ['rec-classic', 'rec-share'], type: 'classic' }),
    },
    { method: 'POST', path: '/groups/describe', headers: json, body: body({ groupIds: [] }) },
    { method: 'POST', path: '/groups/describe', headers: json, body: '{not json' },
    { method: 'POST', path: '/groups/describe', headers: { 'content-type': 'text/plain' }, body: 'x' },
    // Writes: refusals and dry runs only.
    { method: 'DELETE', path: '/groups/rec-empty' },
    { method: 'DELETE', path: '/groups/rec-empty?type=consumer&dryRun=true' },
    { method: 'DELETE', path: '/groups/rec-empty?type=classic&dryRun=true' },
    { method: 'DELETE', path: '/groups/rec-classic?type=classic&dryRun=true' },
    { method: 'DELETE', path: '/groups/no-such-group?type=classic&dryRun=true' },
    { method: 'DELETE', path: `/groups/rec-empty/offsets?type=classic&topic=${TOPIC}&dryRun=true` },
    {
      method: 'DELETE',
      path: `/groups/rec-empty/offsets?type=classic&topic=${TOPIC}&partition=1&dryRun=true`,
    },
    { method: 'DELETE', path: '/groups/rec-empty/offsets?type=classic&dryRun=true' },
    { method: 'DELETE', path: '/groups/rec-static/members/rec-static-0' },
    { method: 'DELETE', path: '/groups/rec-consumer/members/nobody?type=classic' },
    {
      method: 'POST',
      path: '/groups/rec-static/members/remove?type=consumer',
      headers: json,
      body: body({ instanceIds: ['rec-static-0'] }),
    },
    { method: 'POST', path: '/groups/rec-static/members/remove?type=classic', headers: json, body: body({}) },
    ...['to-earliest', 'to-latest', 'to-current'].map((scenario) => ({
      method: 'POST',
      path: '/groups/rec-empty/offsets/reset',
      headers: json,
      body: body({ type: 'classic', scenario }),
    })),
    {
      method: 'POST',
      path: '/groups/rec-empty/offsets/reset',
      headers: json,
      body: body({ type: 'classic', scenario: 'shift-by', shiftBy: -5 }),
    },
    {
      method: 'POST',
      path: '/groups/rec-empty/offsets/reset',
      headers: json,
      body: body({ type: 'classic', scenario: 'to-offset', offset: 10 }),
    },
    {
      method: 'POST',
      path: '/groups/rec-classic/offsets/reset',
      headers: json,
      body: body({ type: 'classic', scenario: 'to-earliest' }),
    },
    {
      method: 'POST',
      path: '/groups/rec-empty/offsets/reset',
      headers: json,
      body: body({ type: 'share', scenario: 'to-earliest' }),
    },
    {
      method: 'POST',
      path: '/groups/rec-empty/offsets/reset',
      headers: json,
      body: body({ type: 'classic' }),
    },
    {
      method: 'POST',
      path: '/groups/rec-empty/offsets/reset?execute=true',
      headers: json,
      body: body({ type: 'classic' }),
    },
    {
      method: 'POST',
      path: '/groups/rec-empty/offsets/reset?execute=true',
      headers: json,
      body: body({ type: 'classic', planToken: 'forged' }),
    },
    {
      method: 'POST',
      path: '/groups/rec-empty/offsets/reset',
      headers: json,
      body: body({ scenario: 'sideways' }),
    },
    // Last, so that it counts every request above.
    { method: 'GET', path: '/metrics' },
  );
  return list;
}

// Keys whose values differ from run to run whatever the code: masked wherever they appear.
// memberMetadata is the subscription's bytes, generation included (its decoded form stays, generation masked).
const VOLATILE_KEYS =
  /^(memberId|clusterId|clientId|host|port|clientHost|metadata|memberMetadata|planToken|progressToken|token|cursor|.*Cursor|next|snapshot|since|.*At|.*Ms|.*Time|.*Timestamp|timestamp|age.*|.*Age|duration.*|uptime.*|rackId|controllerId|nodeId|memberEpoch|groupEpoch|assignmentEpoch|targetAssignmentEpoch|generationId|epoch)$/;

// Members join in any order, so their client ids do; the ids themselves are fixed by the fixtures.
function maskJson(value: unknown, volatile = false): unknown {
  if (Array.isArray(value)) return value.map((v) => maskJson(v, volatile));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        const masked = maskJson(v, volatile || VOLATILE_KEYS.test(k));
        // A group's members come in the order of their random member ids: compared as a set.
        if (k === 'members' && Array.isArray(masked)) {
          return [k, masked.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))];
        }
        return [k, masked];
      }),
    );
  }
  if (volatile && value !== null) return '<masked>';
  return typeof value === 'string' ? maskText(value) : value;
}

function maskText(text: string): string {
  return (
    text
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?/g, '<time>')
      .replace(/127\.0\.0\.1:\d+|localhost:\d+/g, '<host:port>')
      .replace(/[A-Za-z0-9_-]{22}(?=[^A-Za-z0-9_-]|$)/g, (m) =>
        /\d/.test(m) && /[A-Z]/.test(m) ? '<id>' : m,
      )
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uuid>')
      // A classic member id is its client id and a random UUID; members are listed in that id's order.
      .replace(/[\w.-]+-<uuid>/g, '<member>')
  );
}

function maskMetrics(text: string): string {
  // Durations and process figures change every run; counts of the fixed requests do not.
  return text
    .split('\n')
    .map((line) =>
      /^(#|$)/.test(line) || !/(seconds|bytes|process_|nodejs_|_age|_timestamp|uptime)/.test(line)
        ? line
        : line.replace(/ [^ ]+$/, ' <masked>'),
    )
    .join('\n');
}

function mask(contentType: string, text: string): string {
  if (/json/.test(contentType)) {
    if (/ndjson/.test(contentType)) {
      return text
        .split('\n')
        .map((l) => (l === '' ? l : JSON.stringify(maskJson(JSON.parse(l)))))
        .join('\n');
    }
    try {
      return JSON.stringify(maskJson(JSON.parse(text)), null, 2);
    } catch {
      return maskText(text);
    }
  }
  if (/text\/plain/.test(contentType)) return maskText(maskMetrics(text));
  return maskText(text);
}

const VOLATILE_HEADERS = new Set([
  'date',
  'ratelimit',
  'ratelimit-policy',
  'retry-after',
  'etag',
  'x-request-id',
]);

interface Answer {
  request: Request;
  status: number;
  headers: Record<string, string>;
  text: string;
}

function render({ request: r, status, headers, text }: Answer): string {
  const contentType = headers['content-type'] ?? '';
  const kept = Object.entries(headers)
    .filter(([name]) => !VOLATILE_HEADERS.has(name) && name !== 'content-length' && name !== 'content-type')
    .map(([name, value]) => `${name}: ${maskText(value)}`)
    .sort();
  return [
    `### ${r.method} ${r.path}${r.body !== undefined ? ` ${r.body}` : ''}${r.headers?.accept ? ` (accept ${r.headers.accept})` : ''}`,
    `status: ${status}`,
    `content-type: ${contentType}`,
    ...kept,
    '',
    mask(contentType, text),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  if (process.argv[2] === '--remask') {
    // Masks an earlier run's raw answers again (after a mask is added), without a broker.
    const raw = JSON.parse(readFileSync(process.argv[3] as string, 'utf8')) as Answer[];
    writeFileSync(process.argv[4] as string, raw.map(render).join('\n'));
    return;
  }
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((e) => progress(`while stopping: ${e}`));
  };
  try {
    let bootstrap = process.env.KAFKA_BROKERS?.trim();
    if (!bootstrap) {
      progress('starting Kafka');
      const broker: RunningBroker = await startBroker();
      stops.push(() => broker.stop());
      bootstrap = broker.bootstrap;
    }
    progress(`creating groups on ${bootstrap}`);
    const fixtures = await startFixtures({
      bootstrap,
      topics: [{ name: TOPIC, partitions: 3, records: 100 }],
      groups: [
        {
          type: 'classic',
          groupId: 'rec-classic',
          topics: [TOPIC],
          members: 2,
          clientId: 'rec-classic',
          commit: 60,
        },
        {
          type: 'classic',
          groupId: 'rec-static',
          topics: [TOPIC],
          instanceIdPrefix: 'rec-static',
          clientId: 'rec-static',
        },
        { type: 'empty', groupId: 'rec-empty', topics: [TOPIC], commit: 40 },
        {
          type: 'consumer',
          groupId: 'rec-consumer',
          topics: [TOPIC],
          members: 2,
          clientId: 'rec-consumer',
          commit: 80,
        },
        {
          type: 'share',
          groupId: 'rec-share',
          topics: [TOPIC],
          clientId: 'rec-share',
          offsetReset: 'earliest',
        },
        { type: 'streams', groupId: 'rec-streams', topics: [TOPIC], clientId: 'rec-streams' },
      ],
    });
    stops.push(() => fixtures.stop());

    progress('starting the server');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/runtime/node.ts'], {
      env: {
        ...process.env,
        PORT: '0',
        LOG_LEVEL: 'silent',
        KAFKA_BROKERS: bootstrap,
        KAFKA_CLUSTERS: 'second',
        KAFKA_CLUSTER_SECOND_BROKERS: bootstrap,
        AUTH: 'none',
        WRITES: 'enabled',
        RATE_LIMIT_PER_MINUTE: '0',
        TOKEN_SIGNING_KEYS: 'recorded-answers-signing-key-0123456789abcdef',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stops.push(async () => {
      child.kill('SIGTERM');
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk;
        const found = /listening on (http:\/\/\S+)/.exec(output)?.[1];
        if (found) resolve(found);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
    });

    const raw: Answer[] = [];
    for (const request of requests()) {
      const res = await fetch(url + request.path, {
        method: request.method,
        ...(request.headers && { headers: request.headers }),
        ...(request.body !== undefined && { body: request.body }),
      });
      raw.push({
        request,
        status: res.status,
        headers: Object.fromEntries(res.headers.entries()),
        text: await res.text(),
      });
    }
    writeFileSync(`${out}.raw.json`, `${JSON.stringify(raw, null, 2)}\n`);
    const blocks = raw.map(render);
    writeFileSync(out as string, blocks.join('\n'));
    progress(`${blocks.length} answers written to ${out}`);
  } finally {
    await stopAll();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    progress(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
