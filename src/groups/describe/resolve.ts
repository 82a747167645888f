/**
 * Describes groups at one coordinator whatever their type, telling "missing" from "another type"
 * by asking the types' own describe RPCs rather than reading Kafka's error text.
 *
 * Round 1 asks each group's likely type: the one the caller expects, else the one last seen for
 * it, else classic, the type of most groups (Kafka's clients still join classic groups unless told
 * otherwise): one RPC, not four, for a group seen the first time. Groups that round 1 did not find
 * are asked of the types not yet tried, in round 2 (pipelined on one connection: one round trip).
 * A group is missing only when every type the cluster serves has said it is not one of its own.
 */

import type { CallOptions } from '../../broker/deadline.js';
import { type KafkaErrorInfo, KafkaResponseError, UnsupportedApiError } from '../../broker/errors.js';
import { ErrorCode } from '../../broker/protocol/errors.js';
import type { BrokerConnection } from '../../broker/transport/connection.js';
import { GroupNotFoundError, GroupTypeMismatchError, GroupTypeUnavailableError } from '../errors.js';
import { type BrokerRef, GROUP_TYPES, type Group, type GroupType } from '../model.js';
import { failed, type Outcome, ok } from '../outcome.js';
import type { GroupDescriber, TypedOutcome } from './describer.js';

export interface ResolveRequest extends CallOptions {
  /** The type the caller asserts (`?type=`): a group of another type becomes a mismatch error. */
  expected?: GroupType;
  /** The type each group is thought to have (from ListGroups or an earlier describe). */
  hints?: ReadonlyMap<string, GroupType>;
}

/** What a group nothing is known of is asked first. */
const FIRST_GUESS: GroupType = 'classic';

interface Verdicts {
  found?: Group;
  retry?: KafkaErrorInfo;
  failed?: Error;
  tried: Set<GroupType>;
  said: Map<GroupType, TypedOutcome>;
}

export async function resolveGroups(
  describers: Readonly<Record<GroupType, GroupDescriber>>,
  connection: BrokerConnection,
  coordinator: BrokerRef,
  groupIds: readonly string[],
  { expected, hints, deadline }: ResolveRequest,
): Promise<Map<string, Outcome<Group>>> {
  const verdicts = new Map<string, Verdicts>(
    groupIds.map((id) => [id, { tried: new Set(), said: new Map() }]),
  );

  const options = { deadline };
  const describe = async ([type, ids]: [GroupType, string[]]) =>
    [type, await describers[type].describe(connection, coordinator, ids, options)] as const;
  const ask = async (plan: Map<GroupType, string[]>) => {
    // One type (every first round of groups of a known or expected type): no Promise.all around it.
    const answers =
      plan.size === 1
        ? [await describe(plan.entries().next().value as [GroupType, string[]])]
        : await Promise.all([...plan].map(describe));
    for (const [type, outcomes] of answers) {
      for (const [id, outcome] of outcomes) {
        const v = verdicts.get(id);
        if (!v) continue;
        v.tried.add(type);
        v.said.set(type, outcome);
        if (outcome.kind === 'found') v.found = outcome.group;
        else if (outcome.kind === 'retry') v.retry = outcome.kafkaError;
        else if (outcome.kind === 'failed') v.failed = outcome.error;
      }
    }
  };

  const first = new Map<GroupType, string[]>();
  for (const id of groupIds) add(first, expected ?? hints?.get(id) ?? FIRST_GUESS, id);
  await ask(first);

  const second = new Map<GroupType, string[]>();
  for (const [id, v] of verdicts) {
    if (v.found || v.retry || v.failed) continue;
    for (const type of GROUP_TYPES) if (!v.tried.has(type)) add(second, type, id);
  }
  if (second.size > 0) await ask(second);

  const out = new Map<string, Outcome<Group>>();
  for (const [id, v] of verdicts) out.set(id, verdict(id, v, expected, connection.label));
  return out;
}

/** Adds `id` to the plan's list for `type`: a batch of n groups costs n pushes, not n copies. */
function add(plan: Map<GroupType, string[]>, type: GroupType, id: string): void {
  const ids = plan.get(type);
  if (ids) ids.push(id);
  else plan.set(type, [id]);
}

function verdict(
  groupId: string,
  v: Verdicts,
  expected: GroupType | undefined,
  broker: string,
): Outcome<Group> {
  if (v.found) {
    if (expected && v.found.type !== expected) {
      const said = v.said.get(expected);
      const kafkaError = said && 'kafkaError' in said ? said.kafkaError : undefined;
      return failed(new GroupTypeMismatchError(groupId, expected, v.found.type, kafkaError));
    }
    return ok(v.found);
  }
  // A coordinator error on any type means the answer is not complete yet: forEachCoordinator
  // sends the group round again.
  if (v.retry) return failed(new KafkaResponseError(broker, 'describe', v.retry.code, v.retry.message));
  if (v.failed) return failed(v.failed);
  const expectedSaid = expected ? v.said.get(expected) : undefined;
  if (expected && expectedSaid?.kind === 'unsupported') {
    return failed(
      new GroupTypeUnavailableError(groupId, expected, expectedSaid.reason, expectedSaid.kafkaError),
    );
  }
  const said = [...v.said.values()];
  if (said.length > 0 && said.every((o) => o.kind === 'unsupported')) {
    // Not one describe RPC in common with the coordinator: nothing can be said of the group.
    const reasons = [...new Set(said.map((o) => (o.kind === 'unsupported' ? o.reason : '')))].join('; ');
    return failed(
      new UnsupportedApiError(broker, `any group describe RPC (${reasons})`, undefined, { min: 0, max: 0 }),
    );
  }
  const notFound = [...v.said.values()].find(
    (o) => o.kind === 'absent' && o.kafkaError?.code === ErrorCode.GROUP_ID_NOT_FOUND,
  );
  return failed(
    new GroupNotFoundError(groupId, notFound?.kind === 'absent' ? notFound.kafkaError : undefined),
  );
}
