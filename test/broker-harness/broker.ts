/**
 * A single-node Kafka (KRaft, combined broker + controller) for tests, run from the jars that
 * fetch.ts brings from Maven Central.
 *
 *   const broker = await startBroker();           // KAFKA_VERSION or the pinned version
 *   broker.bootstrap                              // '127.0.0.1:PORT' (PLAINTEXT)
 *   broker.sasl                                   // SASL_PLAINTEXT listener: bootstrap, user, password
 *   broker.tls                                    // SSL listener: bootstrap, CA certificate (PEM)
 *   await broker.stop();
 *
 * Each broker gets free loopback ports, a fresh temporary data dir (deleted by stop()) and a log
 * file under <cache>/logs. The JVM runs test/broker-harness/Launcher.java: unless `detached`, it exits when
 * its standard input closes, so it never outlives the Node process that started it, even one
 * killed by SIGKILL. Ready means the broker answered DescribeCluster and its group coordinator
 * answered FindCoordinator (the offsets topic exists), not a log line.
 *
 * Besides PLAINTEXT (inter-broker, fixtures, most tests) the broker listens on SASL_PLAINTEXT
 * (PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512; one user, its password random per broker) and on SSL (a
 * CA and a server certificate for 127.0.0.1 and localhost, made by the JDK's keytool while the
 * storage is formatted). Each listener is advertised as itself, so a client that bootstraps through
 * one discovers the broker on the same one. The credentials are test-only strings.
 *
 * Mutual TLS: an MTLS listener (security protocol SSL, `ssl.client.auth=required`) trusts the same
 * CA, which also signs a client certificate; a second, self-signed "rogue" certificate is one the
 * broker must refuse. Keys and certificates come back as PEM, as KAFKA_SSL_KEY/KAFKA_SSL_CERT take
 * them. Made in the same keytool JVM as the server certificate, while the storage is formatted, so
 * the start takes no longer.
 *
 * OAUTHBEARER: with `oauth` (a JWKS URL the caller serves, and the issuer and audience tokens must
 * carry), an OAUTH listener (SASL_PLAINTEXT, OAUTHBEARER only) validates tokens with Kafka's own
 * OAuthBearerValidatorCallbackHandler against that key set. Without it there is no such listener
 * (the CLI's detached broker, the three-node cluster): nothing would serve the key set.
 */

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { NO_DEADLINE } from '../../src/broker/deadline.js';
import { ErrorCode } from '../../src/broker/protocol/errors.js';
import { DescribeGroups } from '../../src/broker/protocol/messages/describe-groups.js';
import { FindCoordinator } from '../../src/broker/protocol/messages/find-coordinator.js';
import { KafkaCluster } from '../../src/broker/transport/cluster.js';
import { silentLogger } from '../../src/logger.js';
import {
  classpathOf,
  ensureBrokerLib,
  javaCommand,
  KAFKA_TEST_DIR,
  logsDir,
  parseKafkaVersion,
  pruneLogs,
  resolveKafkaVersion,
} from './fetch.js';
import { compiledJavaProgram } from './java-classes.js';
import { sleep, within } from './wait.js';

export interface StartBrokerOptions {
  /** Kafka version; default KAFKA_VERSION or PINNED_KAFKA_VERSION. */
  version?: string;
  /** Where the broker's output goes; default <cache>/logs/broker-<version>-<time>.log. */
  logFile?: string;
  /**
   * Detached: the JVM gets its own session, ignores standard input and outlives this process
   * (for the CLI). Default false: the JVM exits when this process exits.
   */
  detached?: boolean;
  /** Total time allowed for format + start + readiness; default 120 s. */
  readyTimeoutMs?: number;
  /** JVM maximum heap; default KAFKA_HEAP or '512m'. */
  heap?: string;
  /** Extra or overriding server.properties entries. */
  config?: Record<string, string>;
  /** Adds the OAUTH listener, validating JWTs against this key set (which must be served already). */
  oauth?: OauthValidation;
}

export interface OauthValidation {
  /** http(s) URL of the JWKS; Kafka 4.x also needs it in `org.apache.kafka.sasl.oauthbearer.allowed.urls`. */
  jwksUrl: string;
  issuer: string;
  audience: string;
}

export interface RunningBroker {
  /** '127.0.0.1:PORT', for KAFKA_BROKERS. */
  readonly bootstrap: string;
  readonly version: string;
  readonly port: number;
  readonly controllerPort: number;
  readonly pid: number;
  /** Temporary directory with server.properties and the data; removed by stop(). */
  readonly dataDir: string;
  readonly logFile: string;
  /** The JVM's process (its stdin is the lifeline pipe unless detached). */
  readonly process: ChildProcess;
  /** The SASL_PLAINTEXT listener and its one user (same name and password for every mechanism). */
  readonly sasl: SaslListener;
  /** The SSL listener (server authentication only) and the CA that signed its certificate. */
  readonly tls: TlsListener;
  /** The MTLS listener (client certificate required), a client certificate it accepts and one it refuses. */
  readonly mtls: MtlsListener;
  /** The OAUTH listener (SASL OAUTHBEARER), when started with `oauth`. */
  readonly oauth?: { readonly bootstrap: string; readonly port: number };
  /** SIGTERM, wait (bounded), SIGKILL; then removes the data dir. Idempotent. */
  stop(): Promise<void>;
}

export interface SaslListener {
  /** '127.0.0.1:PORT'. */
  readonly bootstrap: string;
  readonly port: number;
  /** Enabled on this listener, as Kafka names them. */
  readonly mechanisms: readonly string[];
  readonly username: string;
  /** Random per broker; test-only. */
  readonly password: string;
}

export interface TlsListener {
  /** '127.0.0.1:PORT'; the certificate names 127.0.0.1 and localhost. */
  readonly bootstrap: string;
  readonly port: number;
  /** PEM of the self-signed CA that signed the broker's certificate. */
  readonly caPem: string;
}

export interface MtlsListener {
  /** '127.0.0.1:PORT'; the server certificate is the SSL listener's. */
  readonly bootstrap: string;
  readonly port: number;
  readonly caPem: string;
  /** Signed by the CA, extended key usage clientAuth. */
  readonly client: PemPair;
  /** Self-signed: the broker does not trust it. */
  readonly rogue: PemPair;
}

export interface PemPair {
  readonly certPem: string;
  /** PKCS#8; test-only. */
  readonly keyPem: string;
}

/** What brokerConfig needs for the SASL_PLAINTEXT, SSL, MTLS and (optional) OAUTH listeners. */
export interface SecureListenersConfig {
  saslPort: number;
  sslPort: number;
  mtlsPort: number;
  /** PEM file of the CA the MTLS listener trusts for client certificates. */
  clientCaFile: string;
  oauth?: OauthValidation & { port: number };
  username: string;
  password: string;
  /** PKCS12 keystore with the broker's key and certificate chain. */
  keystore: string;
  keystorePassword: string;
}

export const SASL_MECHANISMS = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;

const STOP_GRACE_MS = 20_000;

/**
 * server.properties for a single-node combined-mode broker of `version`; with `secure`, also the
 * SASL_PLAINTEXT and SSL listeners.
 */
export function brokerConfig(
  version: string,
  port: number,
  controllerPort: number,
  dataDir: string,
  secure?: SecureListenersConfig,
): Record<string, string> {
  const advertised = [
    `PLAINTEXT://127.0.0.1:${port}`,
    ...(secure
      ? [
          `SASL_PLAINTEXT://127.0.0.1:${secure.saslPort}`,
          `SSL://127.0.0.1:${secure.sslPort}`,
          `MTLS://127.0.0.1:${secure.mtlsPort}`,
          ...(secure.oauth ? [`OAUTH://127.0.0.1:${secure.oauth.port}`] : []),
        ]
      : []),
  ].join(',');
  const secureProtocols = secure
    ? `SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,MTLS:SSL,${secure.oauth ? 'OAUTH:SASL_PLAINTEXT,' : ''}`
    : '';
  const cfg: Record<string, string> = {
    'process.roles': 'broker,controller',
    'node.id': '1',
    listeners: `${advertised},CONTROLLER://127.0.0.1:${controllerPort}`,
    // Metadata answers with the address of the listener the request came in on: each is advertised.
    'advertised.listeners': advertised,
    'listener.security.protocol.map': `PLAINTEXT:PLAINTEXT,${secureProtocols}CONTROLLER:PLAINTEXT`,
    'inter.broker.listener.name': 'PLAINTEXT',
    'controller.listener.names': 'CONTROLLER',
    'controller.quorum.bootstrap.servers': `127.0.0.1:${controllerPort}`,
    'log.dirs': path.join(dataDir, 'data'),
    'num.partitions': '1',
    'default.replication.factor': '1',
    // Topics are created on purpose (fixtures, tests), never by a typo.
    'auto.create.topics.enable': 'false',
    'offsets.topic.replication.factor': '1',
    'offsets.topic.num.partitions': '5',
    'transaction.state.log.replication.factor': '1',
    'transaction.state.log.min.isr': '1',
    'transaction.state.log.num.partitions': '5',
    'group.initial.rebalance.delay.ms': '0',
    // Members of consumer and share groups reconcile through heartbeats: 1 s instead of 5 s makes
    // multi-member groups settle in seconds (the floor must move with it).
    'group.consumer.min.heartbeat.interval.ms': '1000',
    'group.consumer.heartbeat.interval.ms': '1000',
    'num.network.threads': '2',
    'num.io.threads': '4',
    'log.cleaner.dedupe.buffer.size': String(8 * 1024 * 1024),
  };
  if (secure) {
    // PLAIN users live in the JAAS line; SCRAM credentials in the metadata log (scramFormatArgs).
    cfg['listener.name.sasl_plaintext.sasl.enabled.mechanisms'] = SASL_MECHANISMS.join(',');
    cfg['listener.name.sasl_plaintext.plain.sasl.jaas.config'] =
      `org.apache.kafka.common.security.plain.PlainLoginModule required user_${secure.username}="${secure.password}";`;
    for (const scram of ['scram-sha-256', 'scram-sha-512']) {
      cfg[`listener.name.sasl_plaintext.${scram}.sasl.jaas.config`] =
        'org.apache.kafka.common.security.scram.ScramLoginModule required;';
    }
    cfg['listener.name.ssl.ssl.keystore.type'] = 'PKCS12';
    cfg['listener.name.ssl.ssl.keystore.location'] = secure.keystore;
    cfg['listener.name.ssl.ssl.keystore.password'] = secure.keystorePassword;
    cfg['listener.name.ssl.ssl.client.auth'] = 'none';
    // The same server certificate; client certificates must chain to the test CA (a PEM file:
    // no truststore to make).
    cfg['listener.name.mtls.ssl.keystore.type'] = 'PKCS12';
    cfg['listener.name.mtls.ssl.keystore.location'] = secure.keystore;
    cfg['listener.name.mtls.ssl.keystore.password'] = secure.keystorePassword;
    cfg['listener.name.mtls.ssl.truststore.type'] = 'PEM';
    cfg['listener.name.mtls.ssl.truststore.location'] = secure.clientCaFile;
    cfg['listener.name.mtls.ssl.client.auth'] = 'required';
    if (secure.oauth) {
      const { oauth } = secure;
      cfg['listener.name.oauth.sasl.enabled.mechanisms'] = 'OAUTHBEARER';
      cfg['listener.name.oauth.oauthbearer.sasl.jaas.config'] =
        'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;';
      cfg['listener.name.oauth.oauthbearer.sasl.server.callback.handler.class'] =
        'org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler';
      // Only the OAUTH listener enables OAUTHBEARER, so these apply to it alone.
      cfg['sasl.oauthbearer.jwks.endpoint.url'] = oauth.jwksUrl;
      cfg['sasl.oauthbearer.expected.issuer'] = oauth.issuer;
      cfg['sasl.oauthbearer.expected.audience'] = oauth.audience;
      // Expiry exactly: a token's end is then the broker's, not 30 s later (the default skew).
      cfg['sasl.oauthbearer.clock.skew.seconds'] = '0';
    }
  }
  const { major, minor } = parseKafkaVersion(version);
  if (major < 4) {
    // 3.x: the consumer rebalance protocol (KIP-848) is opt-in; share and streams groups do not exist.
    cfg['group.coordinator.rebalance.protocols'] = 'classic,consumer';
  } else {
    cfg['share.coordinator.state.topic.replication.factor'] = '1';
    cfg['share.coordinator.state.topic.min.isr'] = '1';
    cfg['share.coordinator.state.topic.num.partitions'] = '5';
    cfg['group.share.min.heartbeat.interval.ms'] = '1000';
    cfg['group.share.heartbeat.interval.ms'] = '1000';
    if (minor >= 1 || major > 4) {
      cfg['group.streams.min.heartbeat.interval.ms'] = '1000';
      cfg['group.streams.heartbeat.interval.ms'] = '1000';
      cfg['group.streams.initial.rebalance.delay.ms'] = '0';
    }
    if (major === 4 && minor === 0) {
      // 4.0: share groups are early access.
      cfg['group.coordinator.rebalance.protocols'] = 'classic,consumer,share';
      cfg['group.share.enable'] = 'true';
      cfg['unstable.api.versions.enable'] = 'true';
    } else if (major === 4 && minor === 1) {
      // 4.1: share groups need share.version=1 (set at format time); streams groups are unstable.
      cfg['unstable.api.versions.enable'] = 'true';
      cfg['unstable.feature.versions.enable'] = 'true';
    }
    // 4.2+: consumer, share and streams groups are on by default.
    if (minor >= 4 || major > 4) {
      // 4.4 (KIP-1331): a streams group's topology description is kept only by a plugin; the
      // broker's own in-memory one asks each group's Streams clients for theirs.
      cfg['group.streams.topology.description.plugin.class'] =
        'org.apache.kafka.server.streams.InMemoryTopologyDescriptionPlugin';
    }
  }
  return cfg;
}

/** `kafka-storage format` arguments that store the SCRAM credentials of the SASL user. */
export function scramFormatArgs(username: string, password: string): string[] {
  return SASL_MECHANISMS.filter((m) => m.startsWith('SCRAM-')).flatMap((m) => [
    '--add-scram',
    `${m}=[name=${username},password=${password}]`,
  ]);
}

/** Extra `kafka-storage format` arguments for `version` (features off by default there). */
export function formatFeatures(version: string): string[] {
  const { major, minor } = parseKafkaVersion(version);
  if (major === 4 && minor === 1) return ['--feature', 'share.version=1', '--feature', 'streams.version=1'];
  return [];
}

export async function startBroker(options: StartBrokerOptions = {}): Promise<RunningBroker> {
  const version = resolveKafkaVersion(options.version);
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  const lib = await ensureBrokerLib(version);

  await mkdir(logsDir(), { recursive: true });
  await pruneLogs('broker-');
  const logFile =
    options.logFile ??
    path.join(
      logsDir(),
      `broker-${version}-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(2).toString('hex')}.log`,
    );

  await sweepStaleDataDirs();
  // A port picked free can be taken before the broker binds it: retry with new ports then.
  for (let attempt = 1; ; attempt++) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), DATA_DIR_PREFIX));
    await claimDataDir(dataDir);
    try {
      return await startOnce(version, lib, dataDir, logFile, options, deadline);
    } catch (err) {
      await rm(dataDir, { recursive: true, force: true });
      if (err instanceof PortTakenError && attempt < 3 && Date.now() < deadline) continue;
      throw err;
    }
  }
}

class PortTakenError extends Error {}

export const DATA_DIR_PREFIX = 'kafka-groups-rest-broker-';
export const PID_FILE = 'jvm.pid';
/**
 * The test process that owns a data dir. A cluster whose every node a fault test killed has no JVM
 * naming its dir for a while: without this, another run's sweep on the same machine removed it.
 */
export const OWNER_FILE = 'owner.pid';

/** Marks `dir` as this process's, for the sweep of other runs. */
export async function claimDataDir(dir: string): Promise<void> {
  await writeFile(path.join(dir, OWNER_FILE), `${process.pid}\n`);
}

/**
 * Removes data dirs left by brokers whose owner died before stop() (the JVM stopped itself, but
 * nobody deleted its files): older than a minute, its owner (owner.pid) gone, and no live process
 * names the dir on its command line (its JVM from jvm.pid first, then any process).
 */
export async function sweepStaleDataDirs(): Promise<void> {
  const tmp = os.tmpdir();
  let names: string[];
  try {
    names = (await readdir(tmp)).filter((n) => n.startsWith(DATA_DIR_PREFIX));
  } catch {
    return;
  }
  let commandLines: string[] | undefined;
  for (const name of names) {
    const dir = path.join(tmp, name);
    const age = Date.now() - (await stat(dir).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
    if (age < 60_000) continue; // being set up right now, perhaps
    const owner = Number.parseInt(await readFile(path.join(dir, OWNER_FILE), 'utf8').catch(() => ''), 10);
    if (owner > 0 && owner !== process.pid && isAlive(owner)) continue;
    const pid = Number.parseInt(await readFile(path.join(dir, PID_FILE), 'utf8').catch(() => ''), 10);
    if (pid > 0 && isAlive(pid) && commandLine(pid)?.includes(dir)) continue;
    commandLines ??= await allCommandLines();
    if (commandLines.some((c) => c.includes(dir))) continue;
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

async function allCommandLines(): Promise<string[]> {
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((n) => /^\d+$/.test(n));
  return pids.map((p) => commandLine(Number(p)) ?? '');
}

/** JVM options and class path for the broker and its tools, from the lib dir fetch.ts made. */
export function kafkaJvmArgs(lib: string, heap?: string): string[] {
  return [
    '-Xms64m',
    `-Xmx${heap ?? process.env.KAFKA_HEAP ?? '512m'}`,
    '-XX:+UseG1GC',
    '-XX:+ExitOnOutOfMemoryError',
    '-Djava.awt.headless=true',
    `-Dlog4j2.configurationFile=${path.join(KAFKA_TEST_DIR, 'log4j2-broker.properties')}`,
    `-Dkafka.test.log.level=${process.env.KAFKA_LOG_LEVEL ?? 'INFO'}`,
    ...(process.env.KAFKA_JAVA_OPTS ?? '').split(/\s+/).filter(Boolean),
    '-cp',
    classpathOf(lib),
  ];
}

/** A started broker JVM: its process, and how it ended once it has. */
export interface KafkaJvm {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves when the process has exited. */
  readonly exit: Promise<void>;
  /** How it exited, once it has. */
  exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
}

/**
 * Starts `kafka.Kafka propsFile` through Launcher.java, output appended to `logFile`. Unless
 * `detached`, the JVM exits when this process does (its stdin is the lifeline pipe).
 */
export async function launchKafkaJvm(
  jvmArgs: readonly string[],
  propsFile: string,
  logFile: string,
  detached: boolean,
): Promise<KafkaJvm> {
  // Launcher needs only the JDK; its classes go first on the broker's classpath.
  const cp = jvmArgs.indexOf('-cp');
  if (cp < 0 || cp + 1 >= jvmArgs.length) throw new Error('launchKafkaJvm: the JVM arguments name no -cp');
  const launcher = await compiledJavaProgram('Launcher.java', jvmArgs[cp + 1] as string);
  const args = [
    ...jvmArgs.slice(0, cp),
    '-cp',
    launcher.classpath,
    ...jvmArgs.slice(cp + 2),
    launcher.mainClass,
    ...(detached ? [] : ['--exit-on-stdin-eof']),
    'kafka.Kafka',
    propsFile,
  ];
  const fd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    // Own session in both modes: a Ctrl-C meant for the test runner does not hit the JVM before
    // the runner's teardown; the stdin pipe (attached) or `stop` (detached) ends it.
    child = spawn(javaCommand(), args, {
      detached: true,
      stdio: [detached ? 'ignore' : 'pipe', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
  const pid = child.pid;
  if (pid === undefined) {
    await onceSpawnError(child);
    throw new Error(`could not start ${javaCommand()}`);
  }
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
  });
  child.stdin?.on('error', () => {}); // EPIPE once the JVM is gone
  // Neither the child nor its lifeline keeps this process alive; when it exits, the JVM follows.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return { child, pid, exit, exited: () => exited };
}

async function startOnce(
  version: string,
  lib: string,
  dataDir: string,
  logFile: string,
  options: StartBrokerOptions,
  deadline: number,
): Promise<RunningBroker> {
  const [port, controllerPort, saslPort, sslPort, mtlsPort, oauthPort] = await freePorts(6);
  if (
    port === undefined ||
    controllerPort === undefined ||
    saslPort === undefined ||
    sslPort === undefined ||
    mtlsPort === undefined ||
    oauthPort === undefined
  ) {
    throw new Error('no free port');
  }
  // Test-only credentials, fresh for every broker. Letters, digits and '_' only: no quoting needed
  // in the JAAS line, the --add-scram argument or the properties file.
  const username = `kgr_test_${randomBytes(4).toString('hex')}`;
  const password = `pw${randomBytes(16).toString('hex')}`;
  const keystorePassword = randomBytes(12).toString('hex');
  const tlsDir = path.join(dataDir, 'tls');
  const secure: SecureListenersConfig = {
    saslPort,
    sslPort,
    username,
    password,
    keystore: path.join(tlsDir, 'broker.p12'),
    keystorePassword,
    mtlsPort,
    clientCaFile: path.join(tlsDir, 'ca.pem'),
    ...(options.oauth && { oauth: { ...options.oauth, port: oauthPort } }),
  };
  const cfg = { ...brokerConfig(version, port, controllerPort, dataDir, secure), ...options.config };
  const propsFile = path.join(dataDir, 'server.properties');
  await writeFile(
    propsFile,
    `${Object.entries(cfg)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n')}\n`,
  );
  const logStart = await appendLog(logFile, `==== kafka-test: Kafka ${version}, data dir ${dataDir}\n`);

  const jvmArgs = kafkaJvmArgs(lib, options.heap);

  // Format the storage (KRaft, one voter: this node) while keytool makes the SSL listener's
  // certificates (the format reads no keystore).
  let clusterId = randomBytes(16).toString('base64url');
  while (clusterId.startsWith('-')) clusterId = randomBytes(16).toString('base64url'); // not an option
  const [tlsFiles] = await Promise.all([
    makeTlsFiles(tlsDir, secure.keystore, keystorePassword, Math.max(5_000, deadline - Date.now())),
    runToCompletion(
      [
        // A short-lived tool: C1 alone does it in two thirds of the CPU time.
        '-XX:TieredStopAtLevel=1',
        ...jvmArgs,
        'kafka.tools.StorageTool',
        'format',
        '-t',
        clusterId,
        '-c',
        propsFile,
        '--standalone',
        ...scramFormatArgs(username, password),
        ...formatFeatures(version),
      ],
      logFile,
      Math.max(5_000, deadline - Date.now()),
      'kafka-storage format',
    ),
  ]);

  const detached = options.detached ?? false;
  // Kafka 4.x fetches OAuth URLs only when this system property lists them.
  const brokerJvmArgs = options.oauth
    ? [...jvmArgs, `-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=${options.oauth.jwksUrl}`]
    : jvmArgs;
  const jvm = await launchKafkaJvm(brokerJvmArgs, propsFile, logFile, detached);
  const { child, pid } = jvm;
  await writeFile(path.join(dataDir, PID_FILE), `${pid}\n`);
  const exitPromise = jvm.exit;

  const bootstrap = `127.0.0.1:${port}`;
  let stopping: Promise<void> | undefined;
  const broker: RunningBroker = {
    bootstrap,
    version,
    port,
    controllerPort,
    pid,
    dataDir,
    logFile,
    process: child,
    sasl: {
      bootstrap: `127.0.0.1:${saslPort}`,
      port: saslPort,
      mechanisms: SASL_MECHANISMS,
      username,
      password,
    },
    tls: { bootstrap: `127.0.0.1:${sslPort}`, port: sslPort, caPem: tlsFiles.caPem },
    mtls: {
      bootstrap: `127.0.0.1:${mtlsPort}`,
      port: mtlsPort,
      caPem: tlsFiles.caPem,
      client: tlsFiles.client,
      rogue: tlsFiles.rogue,
    },
    ...(options.oauth && { oauth: { bootstrap: `127.0.0.1:${oauthPort}`, port: oauthPort } }),
    stop() {
      stopping ??= (async () => {
        if (!jvm.exited()) {
          signal(pid, 'SIGTERM');
          if (!(await within(exitPromise, STOP_GRACE_MS))) {
            signal(pid, 'SIGKILL');
            await within(exitPromise, 10_000);
          }
        }
        child.stdin?.destroy();
        await rm(dataDir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };

  try {
    await waitUntilReady(bootstrap, deadline, () => jvm.exited() !== undefined);
  } catch (err) {
    const died = jvm.exited();
    const why = died ? `the JVM exited (code ${died.code}, signal ${died.signal})` : (err as Error).message;
    await broker.stop();
    const tail = readLogTail(logFile, logStart);
    if (died && /Address already in use|BindException/.test(tail)) {
      throw new PortTakenError(
        `one of the ports ${port}, ${controllerPort}, ${saslPort}, ${sslPort}, ${mtlsPort}, ${oauthPort} was taken`,
      );
    }
    throw new Error(
      `Kafka ${version} did not become ready on ${bootstrap}: ${why}\nlog file: ${logFile}\n--- last lines ---\n${tail}`,
    );
  }
  return broker;
}

/**
 * Polls until the broker answers DescribeCluster and FindCoordinator for a group (which makes it
 * create the offsets topic and load its coordinator), or throws at `deadline`.
 */
export async function waitUntilReady(
  bootstrap: string,
  deadline: number,
  hasDied: () => boolean = () => false,
): Promise<void> {
  const probe = 'kafka-test-readiness-probe';
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (hasDied()) throw new Error('the broker process exited');
    // The project's own transport and codec; a fresh cluster per attempt, so no socket outlives one.
    const cluster = new KafkaCluster(
      {
        brokers: [bootstrap],
        clientId: 'kafka-test-ready',
        ssl: false,
        connectionTimeoutMs: 1_000,
        requestTimeoutMs: 5_000,
      },
      { logger: silentLogger },
    );
    try {
      const { brokers } = await cluster.describe(NO_DEADLINE);
      if (brokers.length === 0) throw new Error('Metadata lists no broker yet');
      // COORDINATOR_NOT_AVAILABLE until the offsets topic exists: the loop asks again.
      const { response } = await cluster.anyBroker(
        (c) =>
          c.send(
            FindCoordinator,
            (v) => (v >= 4 ? { coordinatorKeys: [probe] } : { key: probe }),
            undefined,
            NO_DEADLINE,
          ),
        NO_DEADLINE,
      );
      const found = response.coordinators?.[0] ?? response;
      if (found.errorCode !== 0 || found.host === undefined || found.port === undefined)
        throw new Error(`FindCoordinator answered error ${found.errorCode}`);
      // The coordinator itself answers for the group (not COORDINATOR_LOAD_IN_PROGRESS): the probe
      // group does not exist, which is an answer (Dead from v0-5, GROUP_ID_NOT_FOUND from v6).
      const described = await cluster
        .connection({ host: found.host, port: found.port })
        .send(DescribeGroups, { groups: [probe] }, undefined, NO_DEADLINE);
      const code = described.response.groups[0]?.errorCode;
      if (code !== ErrorCode.NONE && code !== ErrorCode.GROUP_ID_NOT_FOUND)
        throw new Error(`DescribeGroups answered error ${code}`);
      return;
    } catch (err) {
      lastError = err;
    } finally {
      await cluster.close().catch(() => {});
    }
    await sleep(100);
  }
  throw new Error(
    `timed out; last error: ${lastError instanceof Error ? lastError.message : String(lastError)}`,
  );
}

/** Whether a process with this pid exists (zombies count as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** The command line of a process, or undefined when it is gone or unreadable. */
export function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return undefined;
  }
}

/**
 * Stops a broker by pid (one started detached, perhaps by another process): SIGTERM, wait
 * (bounded), SIGKILL. Signals it only while its command line still contains `mustContain` (its
 * server.properties path), so a reused pid is never hit. Resolves true if it was running.
 */
export async function stopBrokerPid(
  pid: number,
  mustContain: string,
  graceMs = STOP_GRACE_MS,
): Promise<boolean> {
  const ours = () => isAlive(pid) && (commandLine(pid)?.includes(mustContain) ?? false);
  if (!ours()) return false;
  signal(pid, 'SIGTERM');
  const until = Date.now() + graceMs;
  while (Date.now() < until && ours()) await sleep(100);
  if (ours()) {
    signal(pid, 'SIGKILL');
    const killUntil = Date.now() + 10_000;
    while (Date.now() < killUntil && ours()) await sleep(100);
  }
  return true;
}

export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/**
 * A CA and a broker certificate (EC P-256, SAN 127.0.0.1 and localhost) signed by it, made by the
 * JDK's keytool into `dir`: the broker's PKCS12 keystore (its key, certificate and the CA) at
 * `keystore`; a client certificate signed by the CA and a self-signed one, with their keys. Returns
 * the CA and the client pairs as PEM. The commands run in one JVM (Keytool.java): one keytool JVM
 * each would take a second more.
 */
async function makeTlsFiles(
  dir: string,
  keystore: string,
  storepass: string,
  timeoutMs: number,
): Promise<{ caPem: string; client: PemPair; rogue: PemPair }> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const ca = path.join(dir, 'ca.p12');
  const caPem = path.join(dir, 'ca.pem');
  const csr = path.join(dir, 'broker.csr');
  const cert = path.join(dir, 'broker.pem');
  const clientStore = path.join(dir, 'client.p12');
  const clientCsr = path.join(dir, 'client.csr');
  const clientCert = path.join(dir, 'client.pem');
  const clientKey = path.join(dir, 'client.key');
  const rogueStore = path.join(dir, 'rogue.p12');
  const rogueCert = path.join(dir, 'rogue.pem');
  const rogueKey = path.join(dir, 'rogue.key');
  const store = (file: string) => ['-keystore', file, '-storetype', 'PKCS12', '-storepass', storepass];
  const common = ['-validity', '365', '-keyalg', 'EC', '-groupname', 'secp256r1'];
  const commands = [
    [
      '-genkeypair',
      '-alias',
      'ca',
      ...common,
      '-dname',
      'CN=kafka-groups-rest test CA',
      '-ext',
      'bc:c',
      ...store(ca),
    ],
    ['-exportcert', '-alias', 'ca', '-rfc', '-file', caPem, ...store(ca)],
    ['-genkeypair', '-alias', 'broker', ...common, '-dname', 'CN=localhost', ...store(keystore)],
    ['-certreq', '-alias', 'broker', '-file', csr, ...store(keystore)],
    [
      '-gencert',
      '-alias',
      'ca',
      '-infile',
      csr,
      '-outfile',
      cert,
      '-rfc',
      '-validity',
      '365',
      '-ext',
      'SAN=ip:127.0.0.1,dns:localhost',
      '-ext',
      'KU:c=digitalSignature',
      '-ext',
      'EKU=serverAuth',
      ...store(ca),
    ],
    // The CA first, so that keytool can build the chain of the signed certificate.
    ['-importcert', '-alias', 'ca', '-file', caPem, '-noprompt', ...store(keystore)],
    ['-importcert', '-alias', 'broker', '-file', cert, '-noprompt', ...store(keystore)],
    // Mutual TLS: a client the CA vouches for, and one nobody does (same subject, self-signed).
    [
      '-genkeypair',
      '-alias',
      'client',
      ...common,
      '-dname',
      'CN=kafka-groups-rest-client',
      ...store(clientStore),
    ],
    ['-certreq', '-alias', 'client', '-file', clientCsr, ...store(clientStore)],
    [
      '-gencert',
      '-alias',
      'ca',
      '-infile',
      clientCsr,
      '-outfile',
      clientCert,
      '-rfc',
      '-validity',
      '365',
      '-ext',
      'KU:c=digitalSignature',
      '-ext',
      'EKU=clientAuth',
      ...store(ca),
    ],
    ['-exportkey', clientStore, storepass, 'client', clientKey],
    [
      '-genkeypair',
      '-alias',
      'rogue',
      ...common,
      '-dname',
      'CN=kafka-groups-rest-client',
      ...store(rogueStore),
    ],
    ['-exportcert', '-alias', 'rogue', '-rfc', '-file', rogueCert, ...store(rogueStore)],
    ['-exportkey', rogueStore, storepass, 'rogue', rogueKey],
  ];
  const keytoolExports = 'java.base/sun.security.tools.keytool=ALL-UNNAMED';
  const keytool = await compiledJavaProgram('Keytool.java', '', ['--add-exports', keytoolExports]);
  const args = [
    // A short-lived JVM: C1 only and the serial collector start fastest.
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
    // PKCS12 protects keys and the file with 10,000 PBKDF2 rounds by default, most of keytool's
    // time (and the broker's when it loads the keystore); a test keystore needs none of that.
    '-Dkeystore.pkcs12.macIterationCount=1',
    '-Dkeystore.pkcs12.keyPbeIterationCount=1',
    '-Dkeystore.pkcs12.certPbeIterationCount=1',
    '--add-exports',
    keytoolExports,
    '-cp',
    keytool.classpath,
    keytool.mainClass,
    ...commands.flatMap((c, i) => (i === 0 ? c : ['--next', ...c])),
  ];
  await new Promise<void>((resolve, reject) => {
    execFile(javaCommand(), args, { timeout: timeoutMs }, (err, stdout, stderr) => {
      if (!err) return resolve();
      const why = err.killed ? `killed after ${timeoutMs} ms` : `exit code ${err.code}`;
      reject(new Error(`keytool (Keytool.java) failed (${why}): ${`${stdout}\n${stderr}`.trim()}`));
    });
  });
  const read = (file: string) => readFile(file, 'utf8');
  return {
    caPem: await read(caPem),
    client: { certPem: await read(clientCert), keyPem: await read(clientKey) },
    rogue: { certPem: await read(rogueCert), keyPem: await read(rogueKey) },
  };
}

export async function runToCompletion(args: string[], logFile: string, timeoutMs: number, what: string) {
  const fd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(javaCommand(), args, { stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  const result = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | Error>(
    (resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(new Error(`${what} took longer than ${timeoutMs} ms`));
      }, timeoutMs);
      child.once('error', (err) => {
        clearTimeout(timer);
        resolve(err);
      });
      child.once('exit', (code, sig) => {
        clearTimeout(timer);
        resolve({ code, signal: sig });
      });
    },
  );
  if (result instanceof Error || result.code !== 0) {
    const why =
      result instanceof Error ? result.message : `exit code ${result.code}, signal ${result.signal}`;
    throw new Error(
      `${what} failed (${why})\nlog file: ${logFile}\n--- last lines ---\n${readLogTail(logFile)}`,
    );
  }
}

function onceSpawnError(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('error', () => resolve());
    setTimeout(resolve, 100);
  });
}

export async function appendLog(logFile: string, text: string): Promise<number> {
  const handle = await open(logFile, 'a');
  try {
    const { size } = await handle.stat();
    await handle.write(text);
    return size;
  } finally {
    await handle.close();
  }
}

/** The last `lines` lines of a log file, from byte `from` on. */
export function readLogTail(logFile: string, from = 0, lines = 40): string {
  if (!existsSync(logFile)) return '(no log file)';
  const text = readFileSync(logFile).subarray(from).toString('utf8');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** Free loopback ports (bound then released: a small race remains, handled by a retry). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  return ports;
}
