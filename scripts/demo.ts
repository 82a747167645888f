/**
 * `npm run demo`: a real Kafka broker, groups of every type made by Kafka's own clients, and the
 * server on PORT (default 8080). Prints one line with the URL when everything is up; Ctrl-C stops
 * the server, the fixtures and the broker.
 *
 * The demo serves on loopback without authentication (AUTH=none) unless the environment makes its
 * own choice (AUTH, AUTH_API_KEYS or AUTH_JWKS_URL), and says so in its ready line. Writes are on
 * (WRITES=enabled unless set), so every write can be tried on the demo groups; the ready line says
 * that too. Its rate limit is generous (RATE_LIMIT_PER_MINUTE=60000 unless set), so that trying it
 * out is not throttled.
 */

import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/runtime/node.js';
import { type RunningBroker, startBroker } from '../test/broker-harness/broker.js';
import { type RunningFixtures, startFixtures } from '../test/broker-harness/fixtures.js';

const TOPIC = 'demo-events';
const progress = (message: string) => process.stderr.write(`# ${message}\n`);

async function main(): Promise<void> {
  const stops: (() => Promise<void>)[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    progress('stopping the server, the groups and the broker');
    for (const stop of stops.reverse()) await stop().catch((e) => progress(`while stopping: ${e}`));
    process.exit(code);
  };
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));

  try {
    progress('starting Kafka (the first run downloads it with Maven)');
    const broker: RunningBroker = await startBroker();
    stops.push(() => broker.stop());
    progress(`Kafka ${broker.version} on ${broker.bootstrap} (log: ${broker.logFile})`);

    progress('creating groups with the Kafka Java clients');
    const fixtures: RunningFixtures = await startFixtures({
      bootstrap: broker.bootstrap,
      topics: [{ name: TOPIC, partitions: 3, records: 100 }],
      groups: [
        {
          type: 'classic',
          groupId: 'demo-classic',
          topics: [TOPIC],
          members: 2,
          clientId: 'demo-classic',
          commit: 60,
        },
        {
          type: 'classic',
          groupId: 'demo-static',
          topics: [TOPIC],
          instanceIdPrefix: 'demo-static',
          clientId: 'demo-static',
        },
        { type: 'empty', groupId: 'demo-empty', topics: [TOPIC], commit: 40 },
        {
          type: 'consumer',
          groupId: 'demo-consumer',
          topics: [TOPIC],
          members: 2,
          clientId: 'demo-consumer',
          commit: 80,
        },
        {
          type: 'share',
          groupId: 'demo-share',
          topics: [TOPIC],
          clientId: 'demo-share',
          offsetReset: 'earliest',
        },
        { type: 'streams', groupId: 'demo-streams', topics: [TOPIC], clientId: 'demo-streams' },
      ],
    });
    stops.push(() => fixtures.stop());

    const chosen = ['AUTH', 'AUTH_API_KEYS', 'AUTH_JWKS_URL'].some((name) => process.env[name]?.trim());
    const config = loadConfig({
      RATE_LIMIT_PER_MINUTE: '60000',
      RATE_LIMIT_BURST: '1000',
      ...process.env,
      ...(!chosen && { AUTH: 'none' }),
      ...(!process.env.WRITES?.trim() && { WRITES: 'enabled' }),
      KAFKA_BROKERS: broker.bootstrap,
    });
    const server = await startServer(config, createLogger(process.env.LOG_LEVEL ? config.logLevel : 'warn'));
    stops.push(() => server.close());
    const writes =
      config.writes === 'disabled'
        ? 'WRITES=disabled: no writes'
        : config.auth.mode === 'none'
          ? config.writes === 'enabled'
            ? 'WRITES=enabled: anyone here may delete groups, offsets and members'
            : 'writes off (WRITES not enabled)'
          : 'writes by grant';
    console.log(
      `kafka-groups-rest demo ready: ${server.url} (${config.auth.mode === 'none' ? 'AUTH=none: open to every caller on this machine, no credentials' : 'authentication on'}; ${writes}; try ${server.url}/groups, /groups/demo-classic, /groups/demo-classic/health, /metrics, /docs, DELETE /groups/demo-empty?type=classic; Ctrl-C stops)`,
    );
  } catch (error) {
    progress(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
    await stopAll(1);
  }
}

void main();
