import { runJavaClient } from './java-client.js';

export type IsolationLevel = 'read_committed' | 'read_uncommitted';

export interface JavaAdminOffsetsOptions {
  /** 'host:port[,host:port]' */
  bootstrap: string;
  groupId: string;
  /** Isolation level of the end offsets (ListOffsets latest); default read_uncommitted. */
  isolation?: IsolationLevel;
  /** A share group: DescribeShareGroupOffsets instead of OffsetFetch. */
  share?: boolean;
  /** Whole run, JVM start and compile included; default 60 s. */
  timeoutMs?: number;
}

export interface CommittedOffset {
  offset: number;
  /** null when Kafka has none (-1 on the wire). */
  leaderEpoch: number | null;
  /** The commit's metadata string ('' when none). */
  metadata: string;
}

export interface ShareOffset {
  /** -1 when the share-partition state exists but is not initialised yet. */
  startOffset: number;
  leaderEpoch: number | null;
  /** null when the broker reports none (DescribeShareGroupOffsets v0, or lag unknown). */
  lag: number | null;
}

/** Keys are `${topic}:${partition}`. */
export interface JavaAdminOffsets {
  /** Non-share groups: partitions with a committed offset. */
  committed: Map<string, CommittedOffset>;
  /** Latest offset of every partition in `committed` (or `share`). */
  end: Map<string, number>;
  /** Share groups: every partition the share coordinator reports. */
  share: Map<string, ShareOffset>;
}

export async function javaAdminOffsets(options: JavaAdminOffsetsOptions): Promise<JavaAdminOffsets> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const args = ['--bootstrap', options.bootstrap, '--group', options.groupId];
  if (options.isolation) args.push('--isolation', options.isolation);
  if (options.share) args.push('--share');
  // Kafka's own deadline comes first, so its error (not our kill) explains a stuck call.
  args.push('--timeout-ms', String(Math.max(5_000, timeoutMs - 20_000)));

  const what = `Java Admin offsets of ${options.share ? 'share ' : ''}group ${JSON.stringify(options.groupId)}`;
  const { stdout, failure } = await runJavaClient('Offsets.java', args, 'offsets', what, timeoutMs);
  try {
    return parseOffsetsOutput(stdout);
  } catch (err) {
    throw failure(`${(err as Error).message}\n--- stdout ---\n${stdout}`);
  }
}

/** Parses Offsets.java's standard output (see its header comment). */
export function parseOffsetsOutput(stdout: string): JavaAdminOffsets {
  const result: JavaAdminOffsets = { committed: new Map(), end: new Map(), share: new Map() };
  const lines = stdout.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.at(-1) !== 'DONE') throw new Error('output does not end with DONE');
  const int = (s: string | undefined, line: string) => {
    if (s === undefined || !/^-?\d+$/.test(s))
      throw new Error(`not a number in line ${JSON.stringify(line)}`);
    const n = Number(s);
    if (!Number.isSafeInteger(n)) throw new Error(`number out of range in line ${JSON.stringify(line)}`);
    return n;
  };
  const orNull = (n: number) => (n < 0 ? null : n);
  for (const line of lines.slice(0, -1)) {
    const f = line.split(' ');
    const key = `${f[1]}:${int(f[2], line)}`;
    if (f[0] === 'COMMITTED' && f.length === 6) {
      result.committed.set(key, {
        offset: int(f[3], line),
        leaderEpoch: orNull(int(f[4], line)),
        metadata: Buffer.from(f[5] ?? '', 'base64').toString('utf8'),
      });
    } else if (f[0] === 'SHARE' && f.length === 6) {
      result.share.set(key, {
        startOffset: int(f[3], line),
        leaderEpoch: orNull(int(f[4], line)),
        lag: orNull(int(f[5], line)),
      });
    } else if (f[0] === 'END' && f.length === 4) {
      result.end.set(key, int(f[3], line));
    } else {
      throw new Error(`unexpected line ${JSON.stringify(line)}`);
    }
  }
  return result;
}

/** AdminOps.java: one change or listing, made by Kafka's Java Admin client; its output lines before DONE. */
async function adminOps(bootstrap: string, operation: string[], timeoutMs = 60_000): Promise<string[]> {
  const what = `Java Admin ${operation.join(' ')}`;
  const { stdout, failure } = await runJavaClient(
    'AdminOps.java',
    ['--bootstrap', bootstrap, ...operation],
    'admin-ops',
    what,
    timeoutMs,
  );
  const lines = stdout.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.at(-1) !== 'DONE') throw failure(`output does not end with DONE\n--- stdout ---\n${stdout}`);
  return lines.slice(0, -1);
}

/** Grows `topic` to `count` partitions. */
export async function javaAdminCreatePartitions(
  bootstrap: string,
  topic: string,
  count: number,
): Promise<void> {
  await adminOps(bootstrap, ['create-partitions', topic, String(count)]);
}

/** Deletes `topic`. */
export async function javaAdminDeleteTopic(bootstrap: string, topic: string): Promise<void> {
  await adminOps(bootstrap, ['delete-topic', topic]);
}

/** Deletes the groups (Admin.deleteConsumerGroups: they must have no members). */
export async function javaAdminDeleteGroups(bootstrap: string, groupIds: readonly string[]): Promise<void> {
  await adminOps(bootstrap, ['delete-groups', ...groupIds]);
}

/** Hands every partition's leadership back to its preferred replica (after a node was fenced). */
export async function javaAdminElectPreferredLeaders(bootstrap: string): Promise<void> {
  await adminOps(bootstrap, ['elect-preferred-leaders']);
}

/** Every group the cluster lists: group id → protocol type ('' when none). */
export async function javaAdminListGroups(bootstrap: string): Promise<Map<string, string>> {
  const decode = (s: string | undefined) => Buffer.from(s ?? '', 'base64').toString('utf8');
  const groups = new Map<string, string>();
  for (const line of await adminOps(bootstrap, ['list-groups'])) {
    const [tag, id, protocol] = line.split(' ');
    if (tag !== 'GROUP' || id === undefined) throw new Error(`unexpected line ${JSON.stringify(line)}`);
    groups.set(decode(id), decode(protocol));
  }
  return groups;
}

/**
 * Lag of every group whose id starts with `prefix` (share groups aside), as operators compute it with
 * Kafka's Admin client: listGroups, one listConsumerGroupOffsets for all, one listOffsets for all their
 * partitions. With `topic`, only that topic's partitions count.
 */
export async function javaAdminEstateLag(
  bootstrap: string,
  prefix: string,
  topic?: string,
): Promise<Map<string, { lag: number; partitions: number }>> {
  const out = new Map<string, { lag: number; partitions: number }>();
  const args = ['estate-lag', prefix, ...(topic === undefined ? [] : [topic])];
  for (const line of await adminOps(bootstrap, args, 120_000)) {
    const [tag, id, lag, partitions] = line.split(' ');
    if (tag !== 'LAG' || id === undefined) throw new Error(`unexpected line ${JSON.stringify(line)}`);
    out.set(Buffer.from(id, 'base64').toString('utf8'), { lag: Number(lag), partitions: Number(partitions) });
  }
  return out;
}

/** Every topic but Kafka's internal ones. */
export async function javaAdminListTopics(bootstrap: string): Promise<Set<string>> {
  const topics = new Set<string>();
  for (const line of await adminOps(bootstrap, ['list-topics'])) {
    const [tag, name] = line.split(' ');
    if (tag !== 'TOPIC' || name === undefined) throw new Error(`unexpected line ${JSON.stringify(line)}`);
    topics.add(Buffer.from(name, 'base64').toString('utf8'));
  }
  return topics;
}

/** The group.instance.id of each member of a classic or consumer group ('' for a dynamic one), sorted. */
export async function javaAdminMemberInstances(bootstrap: string, groupId: string): Promise<string[]> {
  const instanceIds: string[] = [];
  for (const line of await adminOps(bootstrap, ['describe-members', groupId])) {
    const [tag, value = ''] = line.split(' ');
    if (tag !== 'MEMBER') throw new Error(`unexpected line ${JSON.stringify(line)}`);
    instanceIds.push(Buffer.from(value, 'base64').toString('utf8'));
  }
  return instanceIds.sort();
}

/** Moves the log start of `topic`-`partition` to `offset` (Admin.deleteRecords), as retention would. */
export async function javaAdminDeleteRecords(
  bootstrap: string,
  topic: string,
  partition: number,
  offset: number,
): Promise<void> {
  await adminOps(bootstrap, ['delete-records', topic, String(partition), String(offset)]);
}

/** Commits `offset` for an empty group (Admin.alterConsumerGroupOffsets). */
export async function javaAdminAlterOffsets(
  bootstrap: string,
  groupId: string,
  topic: string,
  partition: number,
  offset: number,
): Promise<void> {
  await adminOps(bootstrap, ['alter-offsets', groupId, topic, String(partition), String(offset)]);
}

/** Appends `count` records to `topic`-`partition`, one batch each (KafkaProducer); their offsets. */
export async function javaProduce(
  bootstrap: string,
  topic: string,
  partition: number,
  count: number,
): Promise<number[]> {
  const lines = await adminOps(bootstrap, ['produce', topic, String(partition), String(count)]);
  return lines.map((line) => {
    const m = /^OFFSET (\d+)$/.exec(line);
    if (!m) throw new Error(`unexpected line ${JSON.stringify(line)}`);
    return Number(m[1]);
  });
}

/**
 * What a KafkaShareConsumer of share group `groupId` reads of `topic` (up to `count` records or
 * 30 s), each acknowledged: `partition` → the offsets delivered, sorted.
 */
export async function javaShareConsume(
  bootstrap: string,
  groupId: string,
  topic: string,
  count: number,
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  for (const line of await adminOps(bootstrap, ['share-consume', groupId, topic, String(count)])) {
    const m = /^RECORD (\d+) (\d+)$/.exec(line);
    if (!m) throw new Error(`unexpected line ${JSON.stringify(line)}`);
    out.set(Number(m[1]), [...(out.get(Number(m[1])) ?? []), Number(m[2])]);
  }
  for (const offsets of out.values()) offsets.sort((a, b) => a - b);
  return out;
}
