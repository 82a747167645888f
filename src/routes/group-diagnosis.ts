import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { CallOptions } from '../broker/deadline.js';
import { diagnose } from '../groups/diagnosis/diagnose.js';
import {
  type DiagnosisData,
  readSnapshot,
  type SnapshotBefore,
  snapshotOf,
} from '../groups/diagnosis/snapshot.js';
import type { GroupService } from '../groups/service.js';
import { deadlineOf, tokenClusterOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import { SNAPSHOT_MAX_AGE_MS, SNAPSHOT_MAX_CHARS, snapshotSince } from '../http/since-token.js';
import { readVisible } from '../http/visibility.js';
import { GroupDiagnosisSchema } from '../openapi/diagnosis-schemas.js';
import { BROKER_PROBLEMS, GROUP_PROBLEMS, problemResponses } from '../openapi/problems.js';
import { expect, strictQuery } from '../openapi/validation.js';
import { bindCluster } from '../tokens/cluster-binding.js';
import type { TokenSigner } from '../tokens/signed.js';
import { GroupIdParam, sinceParam, TypeAssertionParam } from './params.js';

/** The purpose diagnosis snapshots are signed for: a lag snapshot or a reset plan is refused. */
export const DIAGNOSIS_PURPOSE = 'diagnosis-snapshot';
const DEFAULT_STUCK_AFTER_SECONDS = 60;
const STUCK_RULE = 'a whole number of seconds from 0 to 86400';

const groupDiagnosis = createRoute({
  method: 'get',
  path: '/groups/{groupId}/diagnosis',
  middleware: requires({ action: 'offsets' }),
  operationId: 'getGroupDiagnosis',
  tags: ['offsets'],
  summary: 'What is wrong with the group and why: findings with the Kafka fields they read, and what to do',
  description:
    'Describes the group and reads its offsets, then applies the rules of its type (docs/diagnosis.md): each finding has a stable code, a severity, the Kafka fields it read with their values, and what to do. ' +
    'A healthy group has no findings. The answer carries a signed `snapshot` of its members, epochs and offsets: passed back as `since`, the next answer adds membership churn ' +
    '(joins, leaves, epoch bumps per minute), flapping, and the rules that need two readings (a rebalance or a reconciliation that does not end, a member whose partitions do not move, warm-up tasks that do not converge) ' +
    `once the readings are stuckAfterSeconds apart. A since token that was altered, issued by another deployment, for another group or cluster, or more than ${SNAPSHOT_MAX_AGE_MS / 3_600_000} h ago is a 400. Read-only.`,
  request: {
    params: z.object({ groupId: GroupIdParam }),
    query: strictQuery({
      type: TypeAssertionParam,
      stuckAfterSeconds: z
        .string()
        .regex(/^\d{1,5}$/, expect(STUCK_RULE))
        .transform(Number)
        .refine((n) => n <= 86_400, expect(STUCK_RULE))
        .optional()
        .openapi({
          param: { name: 'stuckAfterSeconds', in: 'query' },
          type: 'integer',
          format: 'int32',
          minimum: 0,
          maximum: 86_400,
          default: DEFAULT_STUCK_AFTER_SECONDS,
          description: `How long a condition must last across two readings (since) before it is reported as stuck (default ${DEFAULT_STUCK_AFTER_SECONDS})`,
          example: 30,
        }),
      since: sinceParam(
        'an earlier diagnosis of this group',
        'eyJwIjoiZGlhZ25vc2lzLXNuYXBzaG90In0.c2lnbmF0dXJl',
      ),
    }),
  },
  responses: {
    200: { description: 'Findings', content: { 'application/json': { schema: GroupDiagnosisSchema } } },
    ...problemResponses(...GROUP_PROBLEMS, ...BROKER_PROBLEMS),
  },
});

/** The group configs a rule reads; none when they cannot be read (the rule then stays silent). */
async function configsOf(
  service: GroupService,
  groupId: string,
  options: CallOptions,
): Promise<Map<string, string | null> | undefined> {
  try {
    const configs = await service.groupConfigs?.(groupId, options);
    return configs && new Map(configs.map((c) => [c.name, c.value]));
  } catch {
    return undefined;
  }
}

/**
 * The signed snapshot, no longer than a `since` may be: without its offsets when they make it too
 * long (the rules comparing offsets then stay silent), null when even the members do.
 */
export async function signSnapshot(
  tokens: TokenSigner,
  data: (DiagnosisData & { k: [string, string] }) | undefined,
  maxChars = SNAPSHOT_MAX_CHARS,
): Promise<string | null> {
  if (!data) return null;
  const whole = await tokens.sign(DIAGNOSIS_PURPOSE, data);
  if (whole.length <= maxChars) return whole;
  const membersOnly = await tokens.sign(DIAGNOSIS_PURPOSE, { ...data, o: null });
  return membersOnly.length <= maxChars ? membersOnly : null;
}

export function groupDiagnosisRoutes(app: OpenAPIHono, service: GroupService, tokens: TokenSigner): void {
  app.openapi(groupDiagnosis, async (c) => {
    const { groupId } = c.req.valid('param');
    const { type, since, stuckAfterSeconds } = c.req.valid('query');
    const cluster = await tokenClusterOf(c, service);
    let before: SnapshotBefore | undefined =
      since === undefined
        ? undefined
        : (
            await snapshotSince(tokens, since, async () => cluster, {
              purpose: DIAGNOSIS_PURPOSE,
              of: 'an earlier diagnosis of this group',
              read: (data, issuedAt) => {
                const snapshot = readSnapshot(data, issuedAt);
                if (!snapshot) return { refused: 'not a diagnosis snapshot this API can read' };
                if (snapshot.groupId !== groupId) return { refused: 'the snapshot is of another group' };
                return snapshot;
              },
            })
          ).snapshot;
    const reading = await readVisible(c, 'offsets', groupId, async () => {
      const r = await service.groupReading(groupId, { ...deadlineOf(c), ...(type && { expected: type }) });
      return { type: r.group.type, ...r };
    });
    // A group deleted and made again under the same id with another type: nothing to compare.
    if (before && before.type !== reading.group.type) before = undefined;
    const configs =
      reading.group.type === 'streams' ? await configsOf(service, groupId, deadlineOf(c)) : undefined;
    const diagnosis = diagnose({
      group: reading.group,
      offsets: reading.offsets,
      at: reading.at,
      ...(before && { before }),
      ...(configs && { configs }),
      stuckAfterMs: (stuckAfterSeconds ?? DEFAULT_STUCK_AFTER_SECONDS) * 1000,
    });
    const data = snapshotOf(reading.group, reading.offsets, reading.at, before);
    const snapshot = await signSnapshot(tokens, data && bindCluster(data, cluster));
    return c.json({ ...diagnosis, snapshot }, 200);
  });
}
