/**
 * Classic groups, from DescribeGroups (and the consumer protocol bytes decoded): a rebalance in
 * flight and one that does not end, members whose subscriptions or protocol versions differ.
 * A static member gone is found by its partitions not moving (common.ts): DescribeGroups says
 * nothing of heartbeats.
 */

import type { ClassicGroup } from '../model.js';
import { ev, type Finding, finding, plural, type Reading, type Rule } from './finding.js';

const RPC = 'DescribeGroups';
const REBALANCING = new Set(['PreparingRebalance', 'CompletingRebalance']);

/**
 * In PreparingRebalance the coordinator waits for every member to rejoin, up to the rebalance
 * timeout (the largest max.poll.interval.ms); in CompletingRebalance for the leader's assignment.
 * One reading says a rebalance is in flight; across readings (`since=`) that it does not end.
 */
export function rebalance({ group, at, before, stuckAfterMs }: Reading<ClassicGroup>): Finding[] {
  if (!REBALANCING.has(group.state)) return [];
  const since =
    before && REBALANCING.has(before.state) ? (before.rebalancingSince ?? before.issuedAt) : undefined;
  const evidence = [
    ev('state', `${RPC} GroupState`, group.state),
    ev('members', `${RPC} Members`, group.members.length),
    ev('assignor', `${RPC} ProtocolData`, group.assignor),
  ];
  const waiting =
    group.state === 'PreparingRebalance'
      ? 'members to rejoin (JoinGroup)'
      : "the leader's assignment (SyncGroup)";
  if (since !== undefined && at - since >= stuckAfterMs) {
    const seconds = Math.round((at - since) / 1000);
    return [
      finding(
        'REBALANCE_STUCK',
        'error',
        null,
        `The group has been rebalancing for at least ${seconds} s, now waiting for ${waiting}`,
        [...evidence, ev('since.rebalancingSince', 'the since snapshot', new Date(since).toISOString())],
        group.state === 'PreparingRebalance'
          ? 'A member does not rejoin: it is not calling poll() (the group waits up to its max.poll.interval.ms), or a static ' +
              'member is gone and the group waits out its session.timeout.ms. Find the member in the client logs; remove a gone ' +
              'static member (DELETE …/members) to end the wait.'
          : 'The leader has not sent the assignment: look at the leader client (its assignor may fail or be slow).',
      ),
    ];
  }
  return [
    finding(
      'REBALANCE_IN_PROGRESS',
      'info',
      null,
      `The group is rebalancing, waiting for ${waiting}; nobody consumes until it ends`,
      evidence,
      'Nothing, if it ends within seconds; ask again with since= (and stuckAfterSeconds) to see whether it ends.',
    ),
  ];
}

/** Members subscribed to different topics: range-like assignors give each topic only to its subscribers. */
export const subscriptionsDiffer: Rule<ClassicGroup> = ({ group }) => {
  const subs = new Map<string, string[]>();
  for (const m of group.members) {
    const topics = m.consumerProtocol?.subscription?.topics;
    if (!topics) continue;
    const key = [...topics].sort().join(',');
    subs.set(key, [...(subs.get(key) ?? []), m.memberId]);
  }
  if (subs.size < 2) return [];
  return [
    finding(
      'SUBSCRIPTIONS_DIFFER',
      'warning',
      null,
      `Members subscribe to ${plural(subs.size, 'different topic set')}: ${[...subs.keys()].map((k) => `[${k}]`).join(', ')}`,
      [
        ev(
          'members[].consumerProtocol.subscription.topics',
          `${RPC} Members.MemberMetadata (ConsumerProtocolSubscription Topics)`,
          [...subs.keys()],
        ),
      ],
      'Usually a rolling deploy half done; otherwise give the group one subscription, or split it into groups per subscription.',
    ),
  ];
};

/**
 * Members sending different ConsumerProtocol versions: clients of different releases in one
 * group, which is where eager and cooperative rebalancing get mixed.
 */
export const protocolVersionsDiffer: Rule<ClassicGroup> = ({ group }) => {
  const versions = new Map<number, string[]>();
  for (const m of group.members) {
    const v = m.consumerProtocol?.subscription?.version;
    if (v === undefined) continue;
    versions.set(v, [...(versions.get(v) ?? []), m.clientId]);
  }
  if (versions.size < 2) return [];
  const list = [...versions.keys()].sort((a, b) => a - b);
  return [
    finding(
      'PROTOCOL_VERSIONS_DIFFER',
      'info',
      null,
      `Members speak ${plural(list.length, 'consumer protocol version')} (${list.join(', ')}): clients of different releases`,
      [
        ev(
          'members[].consumerProtocol.subscription.version',
          `${RPC} Members.MemberMetadata (ConsumerProtocolSubscription version)`,
          list,
        ),
        ev('assignor', `${RPC} ProtocolData`, group.assignor),
      ],
      'Finish the upgrade of the older clients; while both run, the group uses the assignor every member supports.',
    ),
  ];
};

export const CLASSIC_RULES: readonly Rule<ClassicGroup>[] = [
  rebalance,
  subscriptionsDiffer,
  protocolVersionsDiffer,
];
