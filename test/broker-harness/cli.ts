/**
 * A test broker that outlives this command, for running the app or tests by hand:
 *
 *   npm run kafka:start      # fetch if needed, start (or find the running one), print KAFKA_BROKERS=...
 *   npm run kafka:stop       # stop it, delete its data
 *   npx tsx test/broker-harness/cli.ts status
 *
 *   export $(npm run -s kafka:start | grep ^KAFKA_BROKERS=)   # then vitest uses it, starts none
 *
 * State lives in <cache>/running-broker.json (KAFKA_CACHE_DIR, default ~/.cache/kafka-groups-rest);
 * KAFKA_VERSION picks the version at start.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { commandLine, isAlive, startBroker, stopBrokerPid, waitUntilReady } from './broker.js';
import { kafkaCacheDir, resolveKafkaVersion } from './fetch.js';

interface BrokerState {
  pid: number;
  bootstrap: string;
  version: string;
  dataDir: string;
  logFile: string;
  startedAt: string;
}

const stateFile = () => path.join(kafkaCacheDir(), 'running-broker.json');

async function readState(): Promise<BrokerState | undefined> {
  try {
    return JSON.parse(await readFile(stateFile(), 'utf8')) as BrokerState;
  } catch {
    return undefined;
  }
}

/** The process is still our broker: alive, and its command line names its data dir. */
function stillOurs(state: BrokerState): boolean {
  return isAlive(state.pid) && (commandLine(state.pid)?.includes(state.dataDir) ?? false);
}

async function answering(state: BrokerState): Promise<boolean> {
  try {
    await waitUntilReady(state.bootstrap, Date.now() + 10_000);
    return true;
  } catch {
    return false;
  }
}

function printBroker(state: BrokerState, what: string): void {
  console.log(`KAFKA_BROKERS=${state.bootstrap}`);
  console.log(`# Kafka ${state.version} ${what}: pid ${state.pid}, data ${state.dataDir}`);
  console.log(`# logs: ${state.logFile}`);
  console.log('# stop it with: npm run kafka:stop');
}

async function cleanUp(state: BrokerState): Promise<void> {
  await rm(state.dataDir, { recursive: true, force: true });
  await rm(stateFile(), { force: true });
}

async function start(): Promise<number> {
  const state = await readState();
  if (state) {
    if (stillOurs(state) && (await answering(state))) {
      const wanted = resolveKafkaVersion();
      if (process.env.KAFKA_VERSION && wanted !== state.version) {
        console.error(`# note: Kafka ${state.version} is running, not ${wanted}; stop it first to switch`);
      }
      printBroker(state, 'already running');
      return 0;
    }
    // Dead or not answering: clear it away before starting anew.
    await stopBrokerPid(state.pid, state.dataDir);
    await cleanUp(state);
  }
  const broker = await startBroker({ detached: true });
  const next: BrokerState = {
    pid: broker.pid,
    bootstrap: broker.bootstrap,
    version: broker.version,
    dataDir: broker.dataDir,
    logFile: broker.logFile,
    startedAt: new Date().toISOString(),
  };
  await writeFile(stateFile(), `${JSON.stringify(next, null, 2)}\n`);
  printBroker(next, 'started');
  return 0;
}

async function stop(): Promise<number> {
  const state = await readState();
  if (!state) {
    console.log('# no test broker is running');
    return 0;
  }
  const wasRunning = await stopBrokerPid(state.pid, state.dataDir);
  if (stillOurs(state)) {
    console.error(`# could not stop pid ${state.pid}; state kept in ${stateFile()}`);
    return 1;
  }
  await cleanUp(state);
  console.log(wasRunning ? `# stopped Kafka ${state.version} (pid ${state.pid})` : '# it was not running');
  return 0;
}

async function status(): Promise<number> {
  const state = await readState();
  if (!state || !stillOurs(state)) {
    console.log('# no test broker is running');
    return 3;
  }
  if (!(await answering(state))) {
    console.log(`# pid ${state.pid} runs but does not answer on ${state.bootstrap}; logs: ${state.logFile}`);
    return 1;
  }
  printBroker(state, 'running');
  return 0;
}

const commands: Record<string, () => Promise<number>> = { start, stop, status };
const command = commands[process.argv[2] ?? ''];
if (!command) {
  console.error('usage: tsx test/broker-harness/cli.ts start|stop|status');
  process.exit(2);
}
command().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
