/**
 * Rules for every group type, read from the offsets and, with `since=`, from two readings: records
 * waiting with nobody to read them, a member whose partitions do not move, membership churn.
 */

import type { Churn } from '../../openapi/diagnosis-schemas.js';
import type { GroupMember } from '../model.js';
import { ev, type Finding, finding, partitionNames, plural, type Reading, who } from './finding.js';
import { idHash } from './snapshot.js';

const DESCRIBE: Record<string, string> = {
  classic: 'DescribeGroups',
  consumer: 'ConsumerGroupDescribe',
  share: 'ShareGroupDescribe',
  streams: 'StreamsGroupDescribe',
};

export const describeRpc = (type: string) => DESCRIBE[type] ?? 'describe';

/** No member, yet records wait: nobody will read them until a member joins. */
export function noMembersRecordsWaiting({ group, offsets }: Reading): Finding[] {
  if (group.members.length > 0 || offsets.totals.lag <= 0) return [];
  const share = group.type === 'share';
  return [
    finding(
      'NO_MEMBERS_RECORDS_WAITING',
      'error',
      null,
      `No member is in the group while ${plural(offsets.totals.lag, 'record')} wait to be ${share ? 'delivered' : 'consumed'}`,
      [
        ev('members', `${describeRpc(group.type)} Members`, 0),
        ev('state', `${describeRpc(group.type)} GroupState`, group.state),
        ev(
          'totals.lag',
          share
            ? 'DescribeShareGroupOffsets StartOffset, ListOffsets'
            : 'OffsetFetch CommittedOffset, ListOffsets',
          offsets.totals.lag,
        ),
      ],
      share
        ? 'Start the share consumers of this group (KafkaShareConsumer with this group.id), or delete the group if it is retired.'
        : 'Start the consumers of this group, or delete the group (or its offsets) if it is retired.',
    ),
  ];
}

/**
 * With `since=`: a member held its partitions across both readings, the committed offsets did not
 * move, and records wait. A static member whose process is gone looks exactly like this: the group
 * keeps its partitions for it until session.timeout.ms, and no rebalance gives them to another.
 */
export function membersNotConsuming({ group, offsets, at, before, stuckAfterMs }: Reading): Finding[] {
  if (!before || before.partitions.size === 0 || at - before.issuedAt < stuckAfterMs) return [];
  const rows = new Map<string, { offset: number | null; lag: number | null }>();
  for (const t of offsets.topics) for (const p of t.partitions) rows.set(`${p.partition}:${t.topic}`, p);
  const out: Finding[] = [];
  for (const member of group.members as GroupMember[]) {
    if (!before.members.has(idHash(member.memberId))) continue;
    const stuck: string[] = [];
    let waiting = 0;
    let held = 0;
    for (const t of member.partitions) {
      for (const p of t.partitions) {
        held++;
        const key = `${p}:${t.topic}`;
        const now = rows.get(key);
        const then = before.partitions.get(key);
        if (!now || !then || now.offset === null || now.lag === null || now.lag <= 0) continue;
        if (now.offset !== then.offset || (then.lag ?? 0) <= 0) continue;
        stuck.push(`${t.topic}-${p}`);
        waiting += now.lag;
      }
    }
    if (stuck.length === 0 || stuck.length < held) continue;
    const isStatic = member.instanceId !== null;
    const seconds = Math.round((at - before.issuedAt) / 1000);
    out.push(
      finding(
        isStatic ? 'STATIC_MEMBER_NOT_CONSUMING' : 'MEMBER_NOT_CONSUMING',
        'error',
        member.memberId,
        `Member ${who(member)} holds ${plural(stuck.length, 'partition')} whose committed offsets have not moved in ${seconds} s while ${plural(waiting, 'record')} wait`,
        [
          ev('instanceId', `${describeRpc(group.type)} Members.GroupInstanceId`, member.instanceId),
          ev(
            'partitions',
            `${describeRpc(group.type)} Members.Assignment`,
            partitionNames(member.partitions),
          ),
          ev('offset', 'OffsetFetch CommittedOffset (unchanged since the snapshot)', stuck),
          ev('lag', 'ListOffsets minus OffsetFetch', waiting),
        ],
        isStatic
          ? 'A static member keeps its partitions until session.timeout.ms passes after its last heartbeat, with no rebalance: ' +
              'if its process is gone, restart it with the same group.instance.id, or remove the member (DELETE …/members) so the others take its partitions.'
          : 'The member is in the group but does not commit: it may be stuck in processing, or commit nothing. Look at its logs; ' +
              'a consumer that does not poll leaves the group after max.poll.interval.ms.',
      ),
    );
  }
  return out;
}

const perMinute = (n: number | null, ms: number) =>
  n === null || ms <= 0 ? null : Math.round((n * 60_000 * 1000) / ms) / 1000;

/** With `since=`: joins, leaves and epoch bumps between the readings, and who came back. */
export function churnOf({ group, at, before }: Reading): Churn | null {
  if (!before) return null;
  const intervalMs = Math.max(0, at - before.issuedAt);
  const now = new Set(group.members.map((m) => idHash(m.memberId)));
  const joined = group.members.filter((m) => !before.members.has(idHash(m.memberId)));
  const leftClients = new Set<string>();
  let leaves = 0;
  for (const [key, m] of before.members) {
    if (now.has(key)) continue;
    leaves++;
    leftClients.add(m.client);
  }
  const rejoined = [
    ...new Set(
      joined
        .filter((m) => leftClients.has(idHash(m.instanceId ?? m.clientId)))
        .map((m) => m.instanceId ?? m.clientId),
    ),
  ].sort();
  const epochBumps =
    group.groupEpoch !== null && before.groupEpoch !== null
      ? Math.max(0, group.groupEpoch - before.groupEpoch)
      : null;
  return {
    issuedAt: new Date(before.issuedAt).toISOString(),
    intervalMs,
    joins: joined.length,
    leaves,
    epochBumps,
    joinsPerMinute: perMinute(joined.length, intervalMs),
    leavesPerMinute: perMinute(leaves, intervalMs),
    epochBumpsPerMinute: perMinute(epochBumps, intervalMs),
    rejoined,
  };
}

/** Members came and went between the readings; flapping when the same clients left and came back. */
export function churnFindings(reading: Reading, churn: Churn | null): Finding[] {
  if (!churn) return [];
  const out: Finding[] = [];
  const source = `${describeRpc(reading.group.type)} Members.MemberId`;
  const evidence = [
    ev('since.joins', source, churn.joins),
    ev('since.leaves', source, churn.leaves),
    ev('since.epochBumps', `${describeRpc(reading.group.type)} GroupEpoch`, churn.epochBumps),
    ev('since.intervalMs', 'the since snapshot', churn.intervalMs),
  ];
  if (churn.rejoined.length > 0) {
    out.push(
      finding(
        'MEMBERSHIP_FLAPPING',
        'warning',
        null,
        `${plural(churn.rejoined.length, 'client')} left the group and came back under a new member id since the snapshot: ${churn.rejoined.join(', ')}`,
        [
          ...evidence,
          ev('since.rejoined', `${describeRpc(reading.group.type)} Members.ClientId`, churn.rejoined),
        ],
        'Each return costs a rebalance. Look for consumers that crash and restart, exceed max.poll.interval.ms, or lose their ' +
          'session (session.timeout.ms against GC pauses or network); static membership (group.instance.id) avoids rebalances on restarts.',
      ),
    );
  } else if (churn.joins + churn.leaves > 0) {
    const rate = (churn.joinsPerMinute ?? 0) + (churn.leavesPerMinute ?? 0);
    out.push(
      finding(
        'MEMBERSHIP_CHURN',
        rate >= 1 ? 'warning' : 'info',
        null,
        `${plural(churn.joins, 'member')} joined and ${plural(churn.leaves, 'member')} left since the snapshot (${rate} per minute)`,
        evidence,
        rate >= 1
          ? 'Membership changes at least once a minute: each change rebalances the group. Check autoscaling and restarts.'
          : 'Membership changed since the snapshot; nothing to do unless it keeps changing.',
      ),
    );
  }
  return out;
}
