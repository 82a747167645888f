/**
 * A group's diagnosis: the rules of its type (one module each), the rules of every type, and with
 * `since=` the churn between two readings. Pure: no clock, no I/O.
 */

import type { GroupDiagnosis } from '../../openapi/diagnosis-schemas.js';
import { CLASSIC_RULES } from './classic.js';
import { churnFindings, churnOf, membersNotConsuming, noMembersRecordsWaiting } from './common.js';
import { CONSUMER_RULES } from './consumer.js';
import { type Finding, ordered, type Reading, type Rule } from './finding.js';
import { SHARE_RULES } from './share.js';
import { STREAMS_RULES } from './streams.js';

const apply = <G extends Reading['group']>(rules: readonly Rule<G>[], reading: Reading<G>) =>
  rules.flatMap((rule) => rule(reading));

function typeRules(reading: Reading): Finding[] {
  const { group } = reading;
  switch (group.type) {
    case 'classic':
      return apply(CLASSIC_RULES, { ...reading, group });
    case 'consumer':
      return apply(CONSUMER_RULES, { ...reading, group });
    case 'share':
      return apply(SHARE_RULES, { ...reading, group });
    case 'streams':
      return apply(STREAMS_RULES, { ...reading, group });
  }
}

export function diagnose(reading: Reading): Omit<GroupDiagnosis, 'snapshot'> {
  const churn = churnOf(reading);
  const findings = ordered([
    ...noMembersRecordsWaiting(reading),
    ...membersNotConsuming(reading),
    ...typeRules(reading),
    ...churnFindings(reading, churn),
  ]);
  const { group } = reading;
  return {
    groupId: group.groupId,
    type: group.type,
    state: group.state,
    members: group.members.length,
    checkedAt: new Date(reading.at).toISOString(),
    stuckAfterSeconds: Math.round(reading.stuckAfterMs / 1000),
    findings,
    since: churn,
  };
}
