/**
 * Offsets tables: committed (or share start) offsets, end offsets and lag per partition, for one
 * group or many at once (one offsets RPC per coordinator, one ListOffsets per leader), with time
 * lag on demand (one Fetch and two ListOffsets more per partition leader).
 */

import type { CallOptions } from '../../broker/deadline.js';
import { UnsupportedApiError } from '../../broker/errors.js';
import type { KafkaCluster } from '../../broker/transport/cluster.js';
import type { Coordinators } from '../coordinators.js';
import { typeHints } from '../listing.js';
import type { Group, GroupOffsets, GroupType, PartitionOwner } from '../model.js';
import { failed, type Outcome, ok } from '../outcome.js';
import { type CommittedOffsets, fetchCommitted, fetchShareStartOffsets } from './committed.js';
import { endOffsets, type Isolation } from './end-offsets.js';
import { type PartitionProbe, type ProbeRequest, probeLog } from './log-probe.js';
import { offsetTable, ownership } from './report.js';
import { withTimeLag } from './time-lag.js';

/** A group's offsets per topic and its totals (the body of GroupOffsets). */
export type OffsetTable = Pick<GroupOffsets, 'topics' | 'totals'>;

export interface OffsetsOptions extends CallOptions {
  /** Assert the type: a group of another type is a GroupTypeMismatchError. */
  expected?: GroupType;
  isolation?: Isolation;
  /** Add each partition's log start, time lag and head age (include=timeLag). */
  timeLag?: boolean;
}

/** How the tables learn each group's members (whose partitions count without a commit). */
export interface Describe {
  one(groupId: string, options: CallOptions & { expected?: GroupType }): Promise<Group>;
  many(
    groupIds: readonly string[],
    options: CallOptions & { hints: ReadonlyMap<string, GroupType> },
  ): Promise<ReadonlyMap<string, Outcome<Group>>>;
}

export class OffsetTables {
  constructor(
    private readonly cluster: KafkaCluster,
    private readonly coordinators: Coordinators,
    private readonly describe: Describe,
  ) {}

  async withGroup(
    groupId: string,
    { isolation = 'read_uncommitted', timeLag = false, ...describe }: OffsetsOptions,
  ): Promise<{ group: Group; offsets: GroupOffsets; at: number; bytesPerRecord?: Map<string, number> }> {
    const options = { deadline: describe.deadline };
    const group = await this.describe.one(groupId, describe);
    const committed = (await this.committed([{ groupId, type: group.type }], options)).get(groupId);
    if (!committed) throw new Error(`no offsets for group ${groupId}`);
    if (!committed.ok) throw committed.error;
    const owners = ownership(group);
    const partitions = [
      ...committed.value.map(({ topic, partition }) => ({ topic, partition })),
      ...[...owners.keys()].map(fromKey),
    ];
    const ends = await endOffsets(this.cluster, partitions, isolation, options);
    let table = offsetTable(committed.value, owners, ends);
    let at = Date.now();
    let bytesPerRecord: Map<string, number> | undefined;
    if (timeLag) {
      const probes = await probeLog(this.cluster, probeRequests([table]), isolation, options);
      at = Date.now();
      table = withTimeLag(table, probes, at);
      bytesPerRecord = bytesPerRecordOf(probes);
    }
    return {
      group,
      at,
      ...(bytesPerRecord && { bytesPerRecord }),
      offsets: {
        groupId,
        type: group.type,
        state: group.state,
        offsetKind: group.type === 'share' ? 'start' : 'committed',
        isolation,
        ...table,
      },
    };
  }

  async ofGroups(
    groups: readonly { groupId: string; type: GroupType | null; state?: string | null }[],
    {
      isolation = 'read_uncommitted',
      timeLag = false,
      described,
      topic,
      bytesPerRecord,
      deadline,
    }: CallOptions & {
      isolation?: Isolation;
      timeLag?: boolean;
      described?: Promise<ReadonlyMap<string, Outcome<Group>>>;
      /** Only this topic's partitions: the rest is neither asked for nor kept. */
      topic?: string;
      /** With timeLag, filled with each group's bytes per record at its offsets (forecasts read it). */
      bytesPerRecord?: Map<string, ReadonlyMap<string, number>>;
    },
  ): Promise<Map<string, Outcome<OffsetTable>>> {
    const options = { deadline };
    const hints = typeHints(groups);
    const [committed, results] = await Promise.all([
      this.committed(groups, options, topic),
      described ?? this.describeHolders(groups, hints, options),
    ]);
    const owners = new Map<string, Map<string, PartitionOwner[]>>();
    for (const [groupId, r] of results) if (r.ok) owners.set(groupId, ownership(r.value, topic));
    const partitions = [
      ...[...committed.values()].flatMap((c) =>
        c.ok ? c.value.map(({ topic, partition }) => ({ topic, partition })) : [],
      ),
      ...[...owners.values()].flatMap((held) => [...held.keys()].map(fromKey)),
    ];
    const ends = await endOffsets(this.cluster, partitions, isolation, options);
    const tables = new Map<string, Outcome<OffsetTable>>();
    for (const [groupId, result] of committed) {
      if (!result.ok) {
        tables.set(groupId, result);
        continue;
      }
      // /offsets fails when the describe does; so does the listing's lag, with the same problem.
      const outcome = results.get(groupId);
      if (outcome && !outcome.ok) {
        tables.set(groupId, outcome);
        continue;
      }
      tables.set(groupId, ok(offsetTable(result.value, owners.get(groupId) ?? new Map(), ends)));
    }
    if (!timeLag) return tables;
    // One probe for every group's partitions: a partition two groups read is asked once per offset.
    const okTables = [...tables.values()].flatMap((t) => (t.ok ? [t.value] : []));
    const probesByOffset = await probeEveryOffset(this.cluster, okTables, isolation, options);
    const at = Date.now();
    const out = new Map<string, Outcome<OffsetTable>>();
    for (const [groupId, t] of tables) {
      if (!t.ok) {
        out.set(groupId, t);
        continue;
      }
      const probes = probesFor(t.value, probesByOffset);
      out.set(groupId, ok(withTimeLag(t.value, probes, at)));
      bytesPerRecord?.set(groupId, bytesPerRecordOf(probes));
    }
    return out;
  }

  /**
   * Describes the groups that may hold partitions: a group listed Empty has no members, so its
   * description adds nothing to its table (a member that joined since is seen by the next read).
   */
  private describeHolders(
    groups: readonly { groupId: string; state?: string | null }[],
    hints: ReadonlyMap<string, GroupType>,
    options: CallOptions,
  ): Promise<ReadonlyMap<string, Outcome<Group>>> {
    const ids = groups.filter((g) => g.state !== 'Empty').map((g) => g.groupId);
    return ids.length === 0 ? Promise.resolve(new Map()) : this.describe.many(ids, { ...options, hints });
  }

  /** Offsets of many groups: share groups' start offsets and the others' commits, per coordinator. */
  private async committed(
    groups: readonly { groupId: string; type: GroupType | null }[],
    options: CallOptions,
    topic?: string,
  ): Promise<Map<string, Outcome<CommittedOffsets>>> {
    const all = await this.committedAll(groups, options);
    if (topic === undefined) return all;
    for (const [groupId, c] of all) if (c.ok) all.set(groupId, ok(c.value.filter((p) => p.topic === topic)));
    return all;
  }

  private async committedAll(
    groups: readonly { groupId: string; type: GroupType | null }[],
    options: CallOptions,
  ): Promise<Map<string, Outcome<CommittedOffsets>>> {
    const share = new Set(groups.filter((g) => g.type === 'share').map((g) => g.groupId));
    return this.coordinators.forEachCoordinator<CommittedOffsets>(
      groups.map((g) => g.groupId),
      async (coordinator, ids) => {
        const connection = this.cluster.connection(coordinator);
        const shareIds = ids.filter((id) => share.has(id));
        const otherIds = ids.filter((id) => !share.has(id));
        const none = new Map<string, Outcome<CommittedOffsets>>();
        const [a, b] = await Promise.all([
          shareIds.length > 0
            ? unsupportedAsFailure(shareIds, fetchShareStartOffsets(connection, shareIds, options))
            : none,
          otherIds.length > 0 ? fetchCommitted(connection, otherIds, options) : none,
        ]);
        return new Map([...a, ...b]);
      },
      options,
    );
  }
}

/**
 * A coordinator without the RPC (DescribeShareGroupOffsets before Kafka 4.1) fails those groups
 * only; the other groups of the same coordinator keep their answers.
 */
async function unsupportedAsFailure<T>(
  ids: readonly string[],
  answer: Promise<Map<string, Outcome<T>>>,
): Promise<Map<string, Outcome<T>>> {
  try {
    return await answer;
  } catch (error) {
    if (!(error instanceof UnsupportedApiError)) throw error;
    return new Map(ids.map((id) => [id, failed(error)]));
  }
}

/** Average bytes per record of the batch each probe read (the retention.bytes runway needs it). */
function bytesPerRecordOf(probes: ReadonlyMap<string, PartitionProbe>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, probe] of probes) {
    const b = probe.batch;
    if (b && b.records > 0 && !b.isControl) out.set(key, b.bytes / b.records);
  }
  return out;
}

function fromKey(key: string): { topic: string; partition: number } {
  const at = key.indexOf(':');
  return { partition: Number(key.slice(0, at)), topic: key.slice(at + 1) };
}

/** What to probe for these tables: the batch at each offset behind its end, the head of every partition. */
function probeRequests(tables: readonly OffsetTable[]): ProbeRequest[] {
  return tables.flatMap((table) =>
    table.topics.flatMap((t) =>
      t.partitions.map((p) => ({
        topic: t.topic,
        partition: p.partition,
        fetchAt: fetchAtOf(p),
        endOffset: p.endOffset,
      })),
    ),
  );
}

const fetchAtOf = (p: { offset: number | null; lag: number | null }) =>
  p.offset !== null && p.lag !== null && p.lag > 0 ? p.offset : null;

/**
 * Probes for many groups' tables. A Fetch names a partition once, so a partition is probed once
 * per distinct offset the groups hold on it: one round per leader covers the first offset of every
 * partition, further rounds only the partitions where groups are at different offsets.
 */
async function probeEveryOffset(
  cluster: KafkaCluster,
  tables: readonly OffsetTable[],
  isolation: Isolation,
  options: CallOptions,
): Promise<Map<string, PartitionProbe>> {
  const rounds: Map<string, ProbeRequest>[] = [];
  for (const request of probeRequests(tables)) {
    const key = `${request.partition}:${request.topic}`;
    const round = rounds.find((r) => {
      const there = r.get(key);
      return (
        !there || there.fetchAt === request.fetchAt || request.fetchAt === null || there.fetchAt === null
      );
    });
    if (!round) rounds.push(new Map([[key, request]]));
    else if (round.get(key)?.fetchAt == null) round.set(key, request);
  }
  const out = new Map<string, PartitionProbe>();
  for (const round of rounds) {
    const probes = await probeLog(cluster, [...round.values()], isolation, options);
    for (const [key, request] of round) {
      const probe = probes.get(key);
      if (!probe) continue;
      out.set(`${key}@${request.fetchAt ?? ''}`, probe);
      // The head and the log start do not depend on the offset: any round's answer serves.
      if (!out.has(`${key}@`)) out.set(`${key}@`, probe);
    }
  }
  return out;
}

/** One table's probes out of `probeEveryOffset`'s answer, keyed as `withTimeLag` reads them. */
function probesFor(
  table: OffsetTable,
  probes: ReadonlyMap<string, PartitionProbe>,
): Map<string, PartitionProbe> {
  const out = new Map<string, PartitionProbe>();
  for (const t of table.topics) {
    for (const p of t.partitions) {
      const key = `${p.partition}:${t.topic}`;
      const fetchAt = fetchAtOf(p);
      const probe = probes.get(`${key}@${fetchAt ?? ''}`) ?? probes.get(`${key}@`);
      if (probe) out.set(key, probe);
    }
  }
  return out;
}
