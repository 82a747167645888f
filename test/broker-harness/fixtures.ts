/**
 * Real Kafka groups of every type, made by Kafka's own Java clients (test/broker-harness/Fixture.java), for
 * tests and the demo.
 *
 *   const fx = await startFixtures({
 *     bootstrap,
 *     groups: [
 *       { type: 'classic', groupId: 'g1', topics: [{ name: 't1', partitions: 3, records: 10 }], commit: 4 },
 *       { type: 'share', groupId: 'g2', topics: ['t1'] },
 *     ],
 *   });
 *   ...                      // the groups are live here
 *   await fx.stop();         // closes every client (members leave their groups) and waits for the JVM
 *
 * startFixtures resolves once the fixture printed ALL READY (see Fixture.java for what ready means
 * per type). The JVM exits by itself when this process exits (it watches its standard input).
 */

import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { spawnJavaClient } from './java-client.js';
import { within } from './wait.js';

export interface TopicSpec {
  name: string;
  /** Default 1. */
  partitions?: number;
  /** Records produced into each partition when the fixture creates the topic; default 0. */
  records?: number;
}

export type OffsetReset = 'earliest' | 'latest';

interface GroupBase {
  groupId: string;
  /** Subscribed topics (streams: source topics); a TopicSpec also creates the topic if missing. */
  topics: Array<string | TopicSpec>;
}

interface MemberOptions {
  /** Members (streams: KafkaStreams instances); default 1. */
  members?: number;
  /** client.id of member i is `${clientId}-${i}`; default `fixture-<type>`. */
  clientId?: string;
}

export interface ClassicGroupSpec extends GroupBase, MemberOptions {
  type: 'classic';
  /** Static membership: member i gets group.instance.id `${instanceIdPrefix}-${i}`. */
  instanceIdPrefix?: string;
  /** Each member commits offset min(commit, log end) on every partition assigned to it. */
  commit?: number;
  /** auto.offset.reset; default earliest. */
  offsetReset?: OffsetReset;
}

export interface ConsumerGroupSpec extends GroupBase, MemberOptions {
  type: 'consumer';
  instanceIdPrefix?: string;
  commit?: number;
  offsetReset?: OffsetReset;
}

export interface ShareGroupSpec extends GroupBase, MemberOptions {
  type: 'share';
  /** Sets the group config share.auto.offset.reset; default: the broker's (latest). */
  offsetReset?: OffsetReset;
}

export interface StreamsGroupSpec extends GroupBase, MemberOptions {
  type: 'streams';
  /** Sink topic of the count; default `${groupId}-counts`. The group id must be a legal topic name part. */
  outputTopic?: string;
  offsetReset?: OffsetReset;
}

/** A classic group in state Empty, made by an Admin offset commit that nobody joins. */
export interface EmptyGroupSpec extends GroupBase {
  type: 'empty';
  /** Committed offset on every partition of its topics, capped at the log end; default 0. */
  commit?: number;
}

export type GroupSpec =
  | ClassicGroupSpec
  | ConsumerGroupSpec
  | ShareGroupSpec
  | StreamsGroupSpec
  | EmptyGroupSpec;
export type GroupKind = GroupSpec['type'];

export interface FixtureOptions {
  /** 'host:port' of a broker. */
  bootstrap: string;
  groups: GroupSpec[];
  /** Topics to create (and fill) besides those named in the groups. */
  topics?: TopicSpec[];
  /** Time allowed until ALL READY, Java compile included; default 150 s. */
  readyTimeoutMs?: number;
  /** Where the clients log; default <cache>/logs/fixture-<time>.log. */
  logFile?: string;
}

export interface RunningFixtures {
  readonly pid: number;
  readonly logFile: string;
  /** The groups, in the order given, all ready. */
  readonly groups: readonly GroupSpec[];
  /** Everything the fixture wrote to standard error so far. */
  stderr(): string;
  /**
   * Closes stdin (the fixture closes every client and exits), waits (bounded), then kills.
   * Rejects if the fixture failed (non-zero exit) meanwhile. Idempotent.
   */
  stop(): Promise<void>;
}

const TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;

/** The command-line arguments of Fixture.java for these options. */
export function fixtureArgs(options: FixtureOptions, timeoutMs = 120_000): string[] {
  const topics = new Map<string, TopicSpec>();
  const addTopic = (t: TopicSpec) => {
    if (!TOPIC_NAME.test(t.name)) throw new Error(`not a legal topic name: ${JSON.stringify(t.name)}`);
    const known = topics.get(t.name);
    if (!known || (known.partitions === undefined && known.records === undefined)) topics.set(t.name, t);
  };
  for (const t of options.topics ?? []) addTopic(t);
  for (const g of options.groups) {
    for (const t of g.topics) addTopic(typeof t === 'string' ? { name: t } : t);
  }

  const args = ['--bootstrap', options.bootstrap, '--timeout-ms', String(timeoutMs)];
  for (const t of topics.values()) {
    args.push('--topic', t.name, String(t.partitions ?? 1), String(t.records ?? 0));
  }
  for (const g of options.groups) {
    if (g.topics.length === 0) throw new Error(`group ${g.groupId}: no topics`);
    args.push('--group', g.type, g.groupId);
    args.push('--topics', g.topics.map((t) => (typeof t === 'string' ? t : t.name)).join(','));
    if (g.type !== 'empty') {
      if (g.members !== undefined) args.push('--members', String(g.members));
      if (g.clientId !== undefined) args.push('--client-id', g.clientId);
      if (g.offsetReset !== undefined) args.push('--offset-reset', g.offsetReset);
    }
    if (g.type === 'classic' || g.type === 'consumer') {
      if (g.instanceIdPrefix !== undefined) args.push('--instance-id', g.instanceIdPrefix);
    }
    if (g.type === 'classic' || g.type === 'consumer' || g.type === 'empty') {
      if (g.commit !== undefined) args.push('--commit', String(g.commit));
    }
    if (g.type === 'streams' && g.outputTopic !== undefined) args.push('--output', g.outputTopic);
  }
  return args;
}

export async function startFixtures(options: FixtureOptions): Promise<RunningFixtures> {
  const readyTimeoutMs = options.readyTimeoutMs ?? 150_000;
  // The fixture's own deadline comes first, so its message (which group is stuck, how) wins.
  const args = fixtureArgs(options, Math.max(5_000, readyTimeoutMs - 25_000));
  const { child, logFile } = await spawnJavaClient('Fixture.java', args, {
    logPrefix: 'fixture',
    stdin: 'pipe',
    ...(options.logFile !== undefined && { logFile: options.logFile }),
  });
  child.stdin?.on('error', () => {}); // EPIPE once the JVM is gone

  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });

  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    });
    child.once('error', (err) => {
      stderr += `\n${err.message}`;
      exit ??= { code: null, signal: null };
      resolve();
    });
  });

  const failure = (why: string) =>
    new Error(
      `fixtures did not become ready: ${why}\n` +
        `groups: ${options.groups.map((g) => `${g.type} ${JSON.stringify(g.groupId)}`).join(', ')}\n` +
        `client log: ${logFile}\n--- fixture stderr ---\n${stderr.trim().split('\n').slice(-40).join('\n')}`,
    );

  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const readyIndexes = new Set<number>();
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(failure(`no ALL READY within ${readyTimeoutMs} ms`)),
        readyTimeoutMs,
      );
      lines.on('line', (line) => {
        const m = /^READY (\d+) /.exec(line);
        if (m) readyIndexes.add(Number(m[1]));
        if (line === 'ALL READY') {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        // Let the last stderr chunks arrive before composing the message.
        setTimeout(
          () => reject(failure(`the fixture exited (code ${exit?.code}, signal ${exit?.signal})`)),
          50,
        );
      });
    });
  } catch (err) {
    await terminate(child, exited, () => exit !== undefined);
    throw err;
  }
  if (readyIndexes.size !== options.groups.length) {
    await terminate(child, exited, () => exit !== undefined);
    throw failure(`ALL READY after ${readyIndexes.size} of ${options.groups.length} groups`);
  }

  // From here on nothing of the fixture keeps this process alive; when it exits, the JVM follows.
  child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr]) {
    (s as unknown as { unref?: () => void } | null)?.unref?.();
  }

  let stopping: Promise<void> | undefined;
  return {
    pid: child.pid ?? -1,
    logFile,
    groups: options.groups,
    stderr: () => stderr,
    stop() {
      stopping ??= (async () => {
        const exitedBefore = exit !== undefined;
        const asked = await terminate(child, exited, () => exit !== undefined);
        // A non-zero exit is a failure unless it came from our own SIGTERM / SIGKILL.
        if (exit && exit.code !== 0 && (exitedBefore || asked)) {
          throw new Error(
            `the fixture failed (exit code ${exit.code}, signal ${exit.signal})\nclient log: ${logFile}\n` +
              `--- fixture stderr ---\n${stderr.trim().split('\n').slice(-40).join('\n')}`,
          );
        }
      })();
      return stopping;
    },
  };
}

/**
 * Asks the fixture to stop (a `stop` line, then end of stdin), then SIGTERM, then SIGKILL, each
 * bounded. True when the fixture exited on being asked (no signal needed).
 */
async function terminate(child: ChildProcess, exited: Promise<void>, hasExited: () => boolean) {
  if (hasExited()) return true;
  child.stdin?.end('stop\n');
  if (await within(exited, 40_000)) return true;
  child.kill('SIGTERM');
  if (await within(exited, 15_000)) return false;
  child.kill('SIGKILL');
  await within(exited, 10_000);
  return false;
}

/** A name unique to this run, for group ids and topics: `${prefix}-<time>-<random>`. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}
