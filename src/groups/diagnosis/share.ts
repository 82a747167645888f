/**
 * Share groups (KIP-932), from ShareGroupDescribe and the share-partition start offsets: records
 * waiting with no member (common.ts) and members behind the target assignment. Kafka does not
 * publish delivery counts through any admin RPC (they live in the share-partition state on the
 * leader), so no rule reads delivery attempts: see docs/diagnosis.md.
 */

import type { ShareGroup } from '../model.js';
import { ev, finding, type Rule, who } from './finding.js';

const RPC = 'ShareGroupDescribe';

/** A member behind the group epoch: it has not heartbeated since the assignment changed. */
export const shareReconciling: Rule<ShareGroup> = ({ group }) =>
  group.members.flatMap((m) =>
    m.memberEpoch < group.assignmentEpoch
      ? [
          finding(
            'MEMBER_RECONCILING',
            'info',
            m.memberId,
            `Member ${who(m)} is at epoch ${m.memberEpoch}, behind the target assignment at ${group.assignmentEpoch}`,
            [
              ev('memberEpoch', `${RPC} Members.MemberEpoch`, m.memberEpoch),
              ev('assignmentEpoch', `${RPC} AssignmentEpoch`, group.assignmentEpoch),
            ],
            'Nothing, if it catches up within a heartbeat or two.',
          ),
        ]
      : [],
  );

export const SHARE_RULES: readonly Rule<ShareGroup>[] = [shareReconciling];
