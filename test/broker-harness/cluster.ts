/**
 * A three-node Kafka cluster (KRaft, every node a broker and a controller) on loopback, for fault
 * tests: stop, kill, pause (SIGSTOP), resume (SIGCONT) and restart any node.
 *
 *   const cluster = await startCluster();           // KAFKA_VERSION or the pinned version
 *   cluster.bootstrap                               // '127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3'
 *   await cluster.nodes[0].kill();  await cluster.nodes[0].start();
 *   await cluster.stop();
 *
 * Built from the single broker's parts (broker.ts): the same jars, server.properties, JVM options
 * and launcher, so each JVM exits with the process that started it. The offsets topic (and the
 * other internal topics) have three replicas, so a group's coordinator moves to another node when
 * its node goes away; min ISR 1 keeps them writable with one node left. PLAINTEXT only.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  appendLog,
  brokerConfig,
  claimDataDir,
  DATA_DIR_PREFIX,
  formatFeatures,
  freePorts,
  type KafkaJvm,
  kafkaJvmArgs,
  launchKafkaJvm,
  PID_FILE,
  readLogTail,
  runToCompletion,
  signal,
  sweepStaleDataDirs,
  waitUntilReady,
} from './broker.js';
import { ensureBrokerLib, logsDir, parseKafkaVersion, pruneLogs, resolveKafkaVersion } from './fetch.js';
import { within } from './wait.js';

export interface StartClusterOptions {
  version?: string;
  /** Nodes (each broker + controller); default 3. */
  size?: number;
  /** JVM heap per node; default '384m'. */
  heap?: string;
  /** Format + start + readiness; default 180 s. */
  readyTimeoutMs?: number;
  /** Extra server.properties entries for every node. */
  config?: Record<string, string>;
}

export type NodeState = 'running' | 'paused' | 'stopped';

export interface ClusterNode {
  readonly nodeId: number;
  readonly port: number;
  /** '127.0.0.1:PORT' (PLAINTEXT). */
  readonly bootstrap: string;
  readonly logFile: string;
  state(): NodeState;
  /** The JVM's pid while it runs (or is paused). */
  pid(): number | undefined;
  /** SIGTERM (a clean shutdown: Kafka moves its leaderships first), SIGKILL after a grace. */
  stop(): Promise<void>;
  /** SIGKILL: a crash, nothing handed over. */
  kill(): Promise<void>;
  /** SIGSTOP: the process hangs with its sockets open (a long GC pause, a stuck disk). */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  /** Starts a stopped or killed node again on its data (no format); resolves once the JVM runs. */
  start(): Promise<void>;
}

export interface RunningCluster {
  readonly version: string;
  /** Every node's PLAINTEXT address, comma-separated, in node order. */
  readonly bootstrap: string;
  readonly nodes: readonly ClusterNode[];
  readonly dataDir: string;
  /** Resolves once every node answers and the group coordinator is ready (bounded). */
  waitUntilReady(timeoutMs?: number): Promise<void>;
  /** Resumes paused nodes, stops every node, deletes the data. Idempotent. */
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 20_000;

/**
 * server.properties of node `nodeId` of a static quorum `voters` ('1@host:port,...'): the single
 * broker's configuration with the cluster's quorum and replication.
 */
export function clusterNodeConfig(
  version: string,
  nodeId: number,
  port: number,
  controllerPort: number,
  dataDir: string,
  voters: string,
  size: number,
): Record<string, string> {
  const cfg = brokerConfig(version, port, controllerPort, dataDir);
  delete cfg['controller.quorum.bootstrap.servers'];
  const replicas = String(Math.min(3, size));
  Object.assign(cfg, {
    'node.id': String(nodeId),
    'controller.quorum.voters': voters,
    'default.replication.factor': replicas,
    'min.insync.replicas': '1',
    'offsets.topic.replication.factor': replicas,
    'transaction.state.log.replication.factor': replicas,
    'transaction.state.log.min.isr': '1',
    // A node back from a pause or a restart takes its leaderships back soon, as in production.
    'leader.imbalance.check.interval.seconds': '10',
    // A node that stops heartbeating to the controller is fenced after this long (default 9 s).
    'broker.session.timeout.ms': '6000',
    'broker.heartbeat.interval.ms': '1000',
  });
  if (parseKafkaVersion(version).major >= 4) {
    cfg['share.coordinator.state.topic.replication.factor'] = replicas;
    cfg['share.coordinator.state.topic.min.isr'] = '1';
  }
  return cfg;
}

export async function startCluster(options: StartClusterOptions = {}): Promise<RunningCluster> {
  const version = resolveKafkaVersion(options.version);
  const size = options.size ?? 3;
  const readyTimeoutMs = options.readyTimeoutMs ?? 180_000;
  const deadline = Date.now() + readyTimeoutMs;
  const lib = await ensureBrokerLib(version);
  await mkdir(logsDir(), { recursive: true });
  await pruneLogs('cluster-');
  await sweepStaleDataDirs();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), DATA_DIR_PREFIX));
  await claimDataDir(dataDir);
  const stamp = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(2).toString('hex')}`;
  const ports = await freePorts(size * 2);
  const jvmArgs = kafkaJvmArgs(lib, options.heap ?? '384m');
  const ids = Array.from({ length: size }, (_, i) => i + 1);
  const voters = ids.map((id, i) => `${id}@127.0.0.1:${ports[size + i]}`).join(',');
  let clusterId = randomBytes(16).toString('base64url');
  while (clusterId.startsWith('-')) clusterId = randomBytes(16).toString('base64url');

  const jvms = new Map<number, KafkaJvm>();
  const paused = new Set<number>();
  // A paused JVM cannot see its lifeline close: resume it if this process goes away. A cluster still
  // running then (test/cluster shares one until its worker ends) leaves no data behind either.
  const onExit = () => {
    for (const jvm of jvms.values()) {
      signal(jvm.pid, 'SIGCONT');
      signal(jvm.pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  };
  process.once('exit', onExit);

  const nodes: ClusterNode[] = [];
  const propsFiles: string[] = [];
  for (const [i, nodeId] of ids.entries()) {
    const port = ports[i] as number;
    const controllerPort = ports[size + i] as number;
    const nodeDir = path.join(dataDir, `node-${nodeId}`);
    await mkdir(nodeDir, { recursive: true });
    const cfg = {
      ...clusterNodeConfig(version, nodeId, port, controllerPort, nodeDir, voters, size),
      ...options.config,
    };
    const propsFile = path.join(nodeDir, 'server.properties');
    await writeFile(
      propsFile,
      `${Object.entries(cfg)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n')}\n`,
    );
    propsFiles.push(propsFile);
    const logFile = path.join(logsDir(), `cluster-${version}-${stamp}-node-${nodeId}.log`);
    await appendLog(logFile, `==== kafka-test: Kafka ${version}, node ${nodeId}, data dir ${nodeDir}\n`);

    const start = async () => {
      if (jvms.has(nodeId)) return;
      const jvm = await launchKafkaJvm(jvmArgs, propsFile, logFile, false);
      jvms.set(nodeId, jvm);
      paused.delete(nodeId);
      void jvm.exit.then(() => {
        if (jvms.get(nodeId) === jvm) jvms.delete(nodeId);
        paused.delete(nodeId);
      });
      await writeFile(path.join(nodeDir, PID_FILE), `${jvm.pid}\n`);
    };
    const end = async (how: 'SIGTERM' | 'SIGKILL') => {
      const jvm = jvms.get(nodeId);
      if (!jvm) return;
      if (paused.has(nodeId)) signal(jvm.pid, 'SIGCONT');
      signal(jvm.pid, how);
      if (!(await within(jvm.exit, how === 'SIGTERM' ? STOP_GRACE_MS : 10_000))) {
        signal(jvm.pid, 'SIGKILL');
        await within(jvm.exit, 10_000);
      }
    };
    nodes.push({
      nodeId,
      port,
      bootstrap: `127.0.0.1:${port}`,
      logFile,
      state: () => (!jvms.has(nodeId) ? 'stopped' : paused.has(nodeId) ? 'paused' : 'running'),
      pid: () => jvms.get(nodeId)?.pid,
      stop: () => end('SIGTERM'),
      kill: () => end('SIGKILL'),
      pause() {
        const jvm = jvms.get(nodeId);
        if (!jvm) throw new Error(`node ${nodeId} is not running`);
        signal(jvm.pid, 'SIGSTOP');
        paused.add(nodeId);
      },
      resume() {
        const jvm = jvms.get(nodeId);
        if (!jvm) throw new Error(`node ${nodeId} is not running`);
        signal(jvm.pid, 'SIGCONT');
        paused.delete(nodeId);
      },
      start,
    });
  }

  const bootstrap = nodes.map((n) => n.bootstrap).join(',');
  let stopping: Promise<void> | undefined;
  const cluster: RunningCluster = {
    version,
    bootstrap,
    nodes,
    dataDir,
    async waitUntilReady(timeoutMs = 120_000) {
      const until = Date.now() + timeoutMs;
      // Every node on its own: each answers Metadata and finds the group coordinator.
      for (const node of nodes) {
        if (node.state() !== 'running') continue;
        await waitUntilReady(node.bootstrap, until, () => node.state() === 'stopped');
      }
    },
    stop() {
      stopping ??= (async () => {
        await Promise.all(nodes.map((n) => n.stop()));
        process.removeListener('exit', onExit);
        await rm(dataDir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };

  try {
    // Every node formats the same cluster id; with a static quorum no --standalone is needed.
    await Promise.all(
      propsFiles.map((propsFile, i) =>
        runToCompletion(
          [
            '-XX:TieredStopAtLevel=1',
            ...jvmArgs,
            'kafka.tools.StorageTool',
            'format',
            '-t',
            clusterId,
            '-c',
            propsFile,
            ...formatFeatures(version),
          ],
          (nodes[i] as ClusterNode).logFile,
          Math.max(5_000, deadline - Date.now()),
          `kafka-storage format (node ${i + 1})`,
        ),
      ),
    );
    await Promise.all(nodes.map((n) => n.start()));
    await cluster.waitUntilReady(Math.max(5_000, deadline - Date.now()));
  } catch (err) {
    await cluster.stop();
    const tails = nodes.map(
      (n) => `--- node ${n.nodeId} (${n.logFile}) ---\n${readLogTail(n.logFile, 0, 15)}`,
    );
    throw new Error(
      `Kafka ${version} cluster did not become ready: ${(err as Error).message}\n${tails.join('\n')}`,
    );
  }
  return cluster;
}
