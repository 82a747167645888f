import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { readVisible } from '../auth/visibility.js';
import {
  MAX_SNAPSHOT_PARTITIONS,
  partitionsBefore,
  rate,
  readSnapshot,
  type SnapshotData,
  snapshotOf,
} from '../groups/health/snapshot.js';
import { DEFAULT_THRESHOLDS, partitionVerdict, type Thresholds, worst } from '../groups/health/verdicts.js';
import type { Group, GroupOffsets } from '../groups/model.js';
import type { GroupService } from '../groups/service.js';
import { tokenClusterOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import { type GroupHealth, GroupHealthSchema, type PartitionHealth } from '../openapi/health-schemas.js';
import { BROKER_PROBLEMS, problemResponse, problemResponses } from '../openapi/problems.js';
import { expect, strictQuery } from '../openapi/validation.js';
import { bindCluster, clusterMismatch } from '../tokens/cluster-binding.js';
import type { TokenSigner } from '../tokens/signed.js';
import { GroupIdParam, IsolationParam, TypeAssertionParam } from './params.js';

/** The purpose lag snapshots are signed for: a token of another purpose is refused. */
export const SNAPSHOT_PURPOSE = 'lag-snapshot';
/** How old a snapshot may be when handed back. */
export const SNAPSHOT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How long a `since` token may be: about 2000 partitions' worth, within the URI limit. */
export const SNAPSHOT_MAX_CHARS = 120_000;

const SECONDS_RULE = 'a whole number of seconds from 0 to 31536000';
const LAG_RULE = 'a whole number of records from 0 to 9007199254740991';

function wholeNumber(rule: string, max: number, description: string, example: number, fallback: number) {
  return z
    .string()
    .regex(/^\d{1,16}$/, expect(rule))
    .transform(Number)
    .refine((n) => n <= max, expect(rule))
    .optional()
    .openapi({
      type: 'integer',
      format: 'int64',
      minimum: 0,
      maximum: max,
      default: fallback,
      description: `${description} (default ${fallback})`,
      example,
    });
}

/** The verdict thresholds, shared by /groups/{groupId}/health and /metrics. */
export const ThresholdParams = {
  maxLag: wholeNumber(
    LAG_RULE,
    Number.MAX_SAFE_INTEGER,
    'Records behind above which a partition is LAGGING',
    500,
    DEFAULT_THRESHOLDS.maxLag,
  ).openapi({ param: { name: 'maxLag', in: 'query' } }),
  maxTimeLagSeconds: wholeNumber(
    SECONDS_RULE,
    31_536_000,
    'Seconds behind (lower bound of the time lag) above which a partition is LAGGING',
    30,
    DEFAULT_THRESHOLDS.maxTimeLagSeconds,
  ).openapi({ param: { name: 'maxTimeLagSeconds', in: 'query' } }),
  idleAfterSeconds: wholeNumber(
    SECONDS_RULE,
    31_536_000,
    'A partition with nothing to consume whose newest record is older than this is IDLE',
    600,
    DEFAULT_THRESHOLDS.idleAfterSeconds,
  ).openapi({ param: { name: 'idleAfterSeconds', in: 'query' } }),
};

export function thresholdsOf(query: {
  maxLag?: number | undefined;
  maxTimeLagSeconds?: number | undefined;
  idleAfterSeconds?: number | undefined;
}): Thresholds {
  return {
    maxLag: query.maxLag ?? DEFAULT_THRESHOLDS.maxLag,
    maxTimeLagSeconds: query.maxTimeLagSeconds ?? DEFAULT_THRESHOLDS.maxTimeLagSeconds,
    idleAfterSeconds: query.idleAfterSeconds ?? DEFAULT_THRESHOLDS.idleAfterSeconds,
  };
}

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
    'REWOUND and the consumption and production rates over the interval. A since token that was altered, issued by ' +
    `another deployment (another TOKEN_SIGNING_KEYS), for another group, or more than ${SNAPSHOT_MAX_AGE_MS / 3_600_000} h ago is a 400. ` +
    'Read-only.',
  request: {
    params: z.object({ groupId: GroupIdParam }),
    query: strictQuery({
      isolation: IsolationParam,
      type: TypeAssertionParam,
      ...ThresholdParams,
      since: z
        .string()
        .optional()
        .openapi({
          param: { name: 'since', in: 'query' },
          description: 'The `snapshot` of an earlier answer for this group (at most 24 h old)',
          example: 'eyJwIjoibGFnLXNuYXBzaG90In0.c2lnbmF0dXJl',
        }),
    }),
  },
  responses: {
    200: { description: 'Verdicts and lag', content: { 'application/json': { schema: GroupHealthSchema } } },
    ...problemResponses(
      'invalid-input',
      'group-not-found',
      'group-type-mismatch',
      'group-type-unavailable',
      'coordinator-unavailable',
      ...BROKER_PROBLEMS,
    ),
  },
});

/** A refused `since`: 400 naming why, never echoing the token. */
function refuseSince(c: Context, token: string, why: string): Response {
  return problemResponse(c, 'invalid-input', `since: ${why}`, {
    errors: [
      {
        in: 'query',
        name: 'since',
        expected: `the snapshot of an earlier answer for this group from this deployment, at most ${SNAPSHOT_MAX_AGE_MS / 3_600_000} h old`,
        received: `a token of ${token.length} characters`,
        message: why,
      },
    ],
  });
}

export interface HealthInput {
  group: Group;
  offsets: GroupOffsets;
  at: number;
}

/** The verdicts of one reading, compared with `before` when there is one. Pure: no clock, no I/O. */
export function healthOf(
  { group, offsets, at }: HealthInput,
  thresholds: Thresholds,
  before?: { snapshot: SnapshotData; issuedAt: number },
): Omit<GroupHealth, 'snapshot'> {
  const members = group.members.length;
  const previous = before ? partitionsBefore(before.snapshot) : undefined;
  const intervalMs = before ? Math.max(0, at - before.issuedAt) : 0;
  const partitions: PartitionHealth[] = [];
  let consumed = 0;
  let produced = 0;
  let compared = 0;
  let producedKnown = false;
  for (const t of offsets.topics) {
    for (const p of t.partitions) {
      const then = previous?.get(`${p.partition}:${t.topic}`);
      const verdict = partitionVerdict(
        {
          offset: p.offset,
          lag: p.lag,
          logStartOffset: p.logStartOffset ?? null,
          timeLagMinMs: p.timeLagMs?.min ?? null,
          headAgeMs: p.headAgeMs ?? null,
          failed: p.error !== null && p.error !== undefined,
        },
        members,
        thresholds,
        then,
      );
      const consumptionRate = then ? rate(then.offset, p.offset, intervalMs) : null;
      const productionRate = then ? rate(then.endOffset, p.endOffset, intervalMs) : null;
      if (then && p.offset !== null) {
        compared++;
        consumed += p.offset - then.offset;
        if (then.endOffset !== null && p.endOffset !== null) {
          produced += p.endOffset - then.endOffset;
          producedKnown = true;
        }
      }
      partitions.push({
        topic: t.topic,
        partition: p.partition,
        verdict,
        offset: p.offset,
        endOffset: p.endOffset,
        logStartOffset: p.logStartOffset ?? null,
        lag: p.lag,
        timeLagMs: p.timeLagMs ?? null,
        timeLagReason: p.timeLagReason ?? null,
        headAgeMs: p.headAgeMs ?? null,
        error: p.error ?? null,
        previousOffset: then?.offset ?? null,
        consumptionRate,
        productionRate,
      });
    }
  }
  return {
    groupId: offsets.groupId,
    type: offsets.type,
    state: offsets.state,
    members,
    isolation: offsets.isolation,
    verdict: worst(partitions.map((p) => p.verdict)),
    checkedAt: new Date(at).toISOString(),
    thresholds,
    totals: {
      lag: offsets.totals.lag,
      maxTimeLagMs: offsets.totals.maxTimeLagMs ?? null,
      partitions: partitions.length,
    },
    partitions,
    since: before
      ? {
          issuedAt: new Date(before.issuedAt).toISOString(),
          intervalMs,
          consumptionRate: compared > 0 ? rate(0, consumed, intervalMs) : null,
          productionRate: producedKnown ? rate(0, produced, intervalMs) : null,
          partitionsCompared: compared,
        }
      : null,
  };
}

export function groupHealthRoutes(app: OpenAPIHono, service: GroupService, tokens: TokenSigner): void {
  app.openapi(groupHealth, async (c) => {
    const { groupId } = c.req.valid('param');
    const { isolation, type, since, ...query } = c.req.valid('query');
    const thresholds = thresholdsOf(query);
    let before: { snapshot: SnapshotData; issuedAt: number } | undefined;
    if (since !== undefined) {
      const verified = await tokens.verify(SNAPSHOT_PURPOSE, since, {
        maxAgeMs: SNAPSHOT_MAX_AGE_MS,
        maxChars: SNAPSHOT_MAX_CHARS,
      });
      if (!verified.ok) return refuseSince(c, since, verified.message) as never;
      const elsewhere = clusterMismatch(verified.data, await tokenClusterOf(c, service));
      if (elsewhere) return refuseSince(c, since, elsewhere) as never;
      const snapshot = readSnapshot(verified.data);
      if (!snapshot) return refuseSince(c, since, 'not a lag snapshot this API can read') as never;
      if (snapshot.g !== groupId) return refuseSince(c, since, 'the snapshot is of another group') as never;
      const asked = isolation === 'read_committed' ? 'c' : 'u';
      if (snapshot.i !== asked) {
        return refuseSince(c, since, 'the snapshot was taken with another isolation') as never;
      }
      before = { snapshot, issuedAt: verified.issuedAt };
    }
    const reading = await readVisible(c, 'offsets', groupId, async () => {
      const r = await service.groupHealth(groupId, {
        ...(isolation && { isolation }),
        ...(type && { expected: type }),
      });
      return { type: r.group.type, ...r };
    });
    const health = healthOf(reading, thresholds, before);
    const data = snapshotOf(reading.offsets);
    const snapshot =
      data && data.p.length <= MAX_SNAPSHOT_PARTITIONS
        ? await tokens.sign(SNAPSHOT_PURPOSE, bindCluster(data, await tokenClusterOf(c, service)))
        : null;
    return c.json({ ...health, snapshot }, 200);
  });
}
