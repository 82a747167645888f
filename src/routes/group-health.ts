import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { healthOf } from '../groups/health/assess.js';
import {
  MAX_PROGRESS_PARTITIONS,
  type ProgressData,
  progressOf,
  readProgress,
} from '../groups/health/progress-token.js';
import type { GroupService } from '../groups/service.js';
import { deadlineOf, tokenClusterOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import { SNAPSHOT_MAX_AGE_MS, snapshotSince } from '../http/since-token.js';
import { readVisible } from '../http/visibility.js';
import { GroupHealthSchema } from '../openapi/health-schemas.js';
import { BROKER_PROBLEMS, GROUP_PROBLEMS, problemResponses } from '../openapi/problems.js';
import { strictQuery } from '../openapi/validation.js';
import { bindCluster } from '../tokens/cluster-binding.js';
import type { TokenSigner } from '../tokens/signed.js';
import { GroupIdParam, IsolationParam, sinceParam, TypeAssertionParam } from './params.js';
import { ThresholdParams, thresholdsOf } from './threshold-params.js';

/** The purpose lag snapshots are signed for: a token of another purpose is refused. */
export const SNAPSHOT_PURPOSE = 'lag-snapshot';
export { SNAPSHOT_MAX_AGE_MS, SNAPSHOT_MAX_CHARS } from '../http/since-token.js';

const groupHealth = createRoute({
  method: 'get',
  path: '/groups/{groupId}/health',
  middleware: requires({ action: 'offsets' }),
  operationId: 'getGroupHealth',
  tags: ['offsets'],
  summary: 'Is the group healthy? A verdict per partition and for the group, lag in records and in time',
  description:
    'Reads the committed and end offsets, then per partition leader one Fetch at the committed offsets (MaxWait 0, a few ' +
    'bytes: only the first record batch header is read) and ListOffsets for the log start and the newest record time. ' +
    'Each partition gets a verdict by the rules of the README (first match wins), the group its worst partition’s. ' +
    'The answer carries a signed `snapshot` of its offsets: passed back as `since`, the next answer adds STALLED and ' +
    'REWOUND and the consumption and production rates over the interval; without it, the production rate is read over the ' +
    'five minutes before (ListOffsets by timestamp). `forecast` gives catchUpSeconds (or why not), the lag skew, and the ' +
    'retention runway from the topics’ retention.ms / retention.bytes (one DescribeConfigs). A since token that was altered, issued by ' +
    `another deployment (another TOKEN_SIGNING_KEYS), for another group, or more than ${SNAPSHOT_MAX_AGE_MS / 3_600_000} h ago is a 400. ` +
    'Read-only.',
  request: {
    params: z.object({ groupId: GroupIdParam }),
    query: strictQuery({
      isolation: IsolationParam,
      type: TypeAssertionParam,
      ...ThresholdParams,
      since: sinceParam('an earlier answer for this group', 'eyJwIjoibGFnLXNuYXBzaG90In0.c2lnbmF0dXJl'),
    }),
  },
  responses: {
    200: { description: 'Verdicts and lag', content: { 'application/json': { schema: GroupHealthSchema } } },
    ...problemResponses(...GROUP_PROBLEMS, ...BROKER_PROBLEMS),
  },
});

export function groupHealthRoutes(app: OpenAPIHono, service: GroupService, tokens: TokenSigner): void {
  app.openapi(groupHealth, async (c) => {
    const { groupId } = c.req.valid('param');
    const { isolation, type, since, ...query } = c.req.valid('query');
    const thresholds = thresholdsOf(query);
    const asked = isolation === 'read_committed' ? 'c' : 'u';
    const before =
      since === undefined
        ? undefined
        : await snapshotSince(tokens, since, () => tokenClusterOf(c, service), {
            purpose: SNAPSHOT_PURPOSE,
            of: 'an earlier answer for this group',
            read: (data): ProgressData | { refused: string } => {
              const snapshot = readProgress(data);
              if (!snapshot) return { refused: 'not a lag snapshot this API can read' };
              if (snapshot.g !== groupId) return { refused: 'the snapshot is of another group' };
              if (snapshot.i !== asked) return { refused: 'the snapshot was taken with another isolation' };
              return snapshot;
            },
          });
    const reading = await readVisible(c, 'offsets', groupId, async () => {
      const r = await service.groupHealth(groupId, {
        ...deadlineOf(c),
        window: before === undefined,
        ...(isolation && { isolation }),
        ...(type && { expected: type }),
      });
      return { type: r.group.type, ...r };
    });
    const health = healthOf(reading, thresholds, before);
    const data = progressOf(reading.offsets);
    const snapshot =
      data && data.p.length <= MAX_PROGRESS_PARTITIONS
        ? await tokens.sign(SNAPSHOT_PURPOSE, bindCluster(data, await tokenClusterOf(c, service)))
        : null;
    return c.json({ ...health, snapshot }, 200);
  });
}
