/**
 * Where a one-caller describe spends its time, layer by layer, in one process: each layer is
 * called sequentially (one caller), and the differences say what each layer adds.
 *
 *   0. floor: the same DescribeGroups frame (our codec) on a bare `node:net` socket to the
 *      coordinator, answered by the broker: what no client of this broker can go below,
 *   1. transport: `connection.send(DescribeGroups)` to the coordinator (our Link over kafkajs),
 *   2. service: `describeGroup(id)` (type resolution, coordinators, the coalescer, the model),
 *   3. `GET /healthz` through the Node server (startServer) on a keep-alive socket: the hop and
 *      every middleware, no Kafka (not a layer of the describe: the hop alone, for comparison),
 *   4. `GET /groups/{id}` through that server: the hop, the middleware, the route and the service.
 *
 *   KAFKA_BROKERS=host:port npx tsx bench/layers.ts <groupId> [--requests=2000] [--rounds=3]
 *
 * The HTTP client (node:http, one keep-alive socket) runs in the same process, so its CPU counts
 * in the HTTP rows. The group must exist (bench/hop.ts or bench/side-by-side.ts make some). Per layer: calls a
 * second and this process's CPU per call (client and server both: it is one process). The rounds
 * alternate between the layers so each sees the same machine; the load average is printed.
 */

import { once } from 'node:events';
import { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Deadline, NO_DEADLINE } from '../src/broker/deadline.js';
import { decodeResponseFrame, encodeRequestFrame } from '../src/broker/protocol/headers.js';
import { DescribeGroups } from '../src/broker/protocol/messages/describe-groups.js';
import { loadConfig } from '../src/config.js';
import { silentLogger } from '../src/logger.js';
import { startServer } from '../src/runtime/node.js';
import { createService } from '../src/wiring.js';
import { getStatus } from './get-status.js';

const groupId = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (!groupId) throw new Error('usage: KAFKA_BROKERS=… npx tsx bench/layers.ts <groupId>');
const flag = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const requests = flag('requests', 2000);
const rounds = flag('rounds', 3);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** One frame out, its whole answer back: the broker's round trip with nothing of a client around it. */
function rawExchange(socket: Socket): (frame: Uint8Array) => Promise<Buffer> {
  let waiting: ((answer: Buffer) => void) | undefined;
  let chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    const all = chunks.length === 1 ? chunk : Buffer.concat(chunks);
    if (all.length >= 4 && all.length >= 4 + all.readInt32BE(0)) {
      chunks = [];
      waiting?.(all);
    }
  });
  return (frame) =>
    new Promise((resolve) => {
      waiting = resolve;
      socket.write(frame);
    });
}

interface Median {
  us: number;
  cpu: number;
}

async function main(): Promise<void> {
  const env = {
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '',
    AUTH: 'none',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_OPEN_PER_MINUTE: '0',
    PORT: '0',
  };
  const config = loadConfig(env);
  const service = createService(config, { logger: silentLogger });
  const first = await service.groups.describeGroup(groupId as string, NO_DEADLINE);
  const { host, port } = first.coordinator as { host: string; port: number };
  const connection = service.cluster.connection({ host, port });
  const request = { groups: [groupId as string], includeAuthorizedOperations: false };
  const { version } = await connection.send(DescribeGroups, request, undefined, NO_DEADLINE);
  const socket = connect(port, host).setNoDelay(true);
  await once(socket, 'connect');
  const exchange = rawExchange(socket);
  let correlationId = 0;
  const server = await startServer(config, silentLogger);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const path = `/groups/${encodeURIComponent(groupId as string)}`;
  const layers: { name: string; call: () => Promise<unknown> }[] = [
    {
      name: 'floor (bare socket)',
      call: async () => {
        const frame = encodeRequestFrame(DescribeGroups, version, correlationId++, 'layers', request);
        decodeResponseFrame(DescribeGroups, version, await exchange(frame));
      },
    },
    {
      name: 'transport (DescribeGroups)',
      call: () => connection.send(DescribeGroups, request, undefined, NO_DEADLINE),
    },
    {
      name: 'service (describeGroup)',
      call: () => service.groups.describeGroup(groupId as string, NO_DEADLINE),
    },
    {
      name: 'service, with a deadline',
      call: () => service.groups.describeGroup(groupId as string, { deadline: Deadline.after(30_000) }),
    },
    {
      name: 'HTTP /healthz',
      call: async () => {
        const status = await getStatus(`${server.url}/healthz`, agent);
        if (status !== 200) throw new Error(`HTTP: ${status}`);
      },
    },
    {
      name: 'HTTP describe',
      call: async () => {
        const status = await getStatus(`${server.url}${path}`, agent);
        if (status !== 200) throw new Error(`HTTP: ${status}`);
      },
    },
  ];
  for (const layer of layers) for (let i = 0; i < 300; i++) await layer.call();
  const results = layers.map(() => ({ us: [] as number[], cpu: [] as number[] }));
  for (let r = 1; r <= rounds; r++) {
    for (const [k, layer] of layers.entries()) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < requests; i++) await layer.call();
      const us = ((performance.now() - started) * 1000) / requests;
      const used = process.cpuUsage(cpu);
      const cpuUs = (used.user + used.system) / requests;
      results[k]?.us.push(us);
      results[k]?.cpu.push(cpuUs);
      console.log(
        `round ${r} ${layer.name}: ${us.toFixed(0)} µs/call, CPU ${cpuUs.toFixed(0)} µs/call; load average ${load()}`,
      );
    }
  }
  console.log(`\nmedians of ${rounds} rounds of ${requests} calls, one caller, one process:`);
  const m = results.map((r) => ({ us: median(r.us), cpu: median(r.cpu) }));
  for (const [k, layer] of layers.entries()) {
    console.log(
      `${layer.name.padEnd(28)} ${m[k]?.us.toFixed(0).padStart(5)} µs/call  CPU ${m[k]?.cpu.toFixed(0).padStart(4)} µs/call`,
    );
  }
  const [floor, transport, service_, withDeadline, healthz, describe] = m as Median[] as [
    Median,
    Median,
    Median,
    Median,
    Median,
    Median,
  ];
  console.log(
    `transport − floor: ${(transport.us - floor.us).toFixed(0)} µs, CPU ${(transport.cpu - floor.cpu).toFixed(0)} µs; ` +
      `the deadline: ${(withDeadline.us - service_.us).toFixed(0)} µs, CPU ${(withDeadline.cpu - service_.cpu).toFixed(0)} µs; ` +
      `service − transport: ${(service_.us - transport.us).toFixed(0)} µs, CPU ${(service_.cpu - transport.cpu).toFixed(0)} µs; ` +
      `HTTP describe − service: ${(describe.us - service_.us).toFixed(0)} µs, CPU ${(describe.cpu - service_.cpu).toFixed(0)} µs ` +
      `(HTTP /healthz alone: ${healthz.us.toFixed(0)} µs, CPU ${healthz.cpu.toFixed(0)} µs)`,
  );
  console.log(`load average ${load()}`);
  agent.destroy();
  socket.destroy();
  await server.close();
  await service.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
