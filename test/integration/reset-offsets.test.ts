/**
 * POST /groups/{groupId}/offsets/reset against the real broker, on groups made by Kafka's own Java
 * clients: every scenario on classic and consumer groups, share and streams groups where the broker
 * has them, clamping, the plan token's flow (dry run, execute, stale, tampered, expired, foreign),
 * a live group, a missing id and a caller without the grant. Every outcome is read back with
 * Kafka's Java Admin client, not with this API.
 */

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { securityFrom } from '../../src/http/security.js';
import type { Logger } from '../../src/logger.js';
import type { Problem } from '../../src/openapi/problems.js';
import type { ResetAlreadyApplied, ResetExecuted, ResetPlanned } from '../../src/openapi/reset.js';
import { tokenSigner } from '../../src/tokens/signed.js';
import { commitOffsets } from '../broker-harness/commit-offset.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { javaAdminListGroups, javaAdminOffsets, javaShareConsume } from '../broker-harness/java-admin.js';
import { produceAt } from '../broker-harness/produce-at.js';
import { type TestApp, testApp } from '../support/app.js';
import { createsShareGroups, hasGroupType, kafkaAtLeast } from '../support/kafka-version.js';

// Each test starts one or more JVMs (Kafka's Java Admin client reads every outcome back); on a
// loaded 2-core machine a JVM start alone can pass half a minute.
vi.setConfig({ testTimeout: 300_000 });

const run = uniqueName('rst');
const topic = `${run}-in`;
const timed = `${run}-timed`;
const RECORDS = 20;
const COMMIT = 8;
const DAY = 86_400_000;
const NOW = Date.now();
/** Records of `timed`, per partition: offsets 0-4 three days ago, 5-9 two days ago, 10-14 yesterday. */
const BATCH = 5;
const TIMED_END = 3 * BATCH;

const SCENARIOS = [
  'to-earliest',
  'to-latest',
  'to-offset',
  'shift-by',
  'to-datetime',
  'by-duration',
  'to-current',
  'from-list',
] as const;
type Scenario = (typeof SCENARIOS)[number];
const TYPES = ['classic', 'consumer'] as const;

const idOf = (type: string, scenario: string) => `${run}-${type}-${scenario}`;
const ids = {
  live: `${run}-live`,
  stale: `${run}-stale`,
  dry: `${run}-dry`,
  partial: `${run}-partial`,
  again: `${run}-again`,
  clamp: `${run}-clamp`,
  guarded: `${run}-guarded`,
  tokens: `${run}-tokens`,
  other: `${run}-other`,
  missing: `${run}-missing`,
  share: `${run}-share`,
  streams: `${run}-streams`,
};
const EMPTY_CLASSIC = [
  ...SCENARIOS.map((s) => idOf('classic', s)),
  ids.stale,
  ids.dry,
  ids.partial,
  ids.again,
  ids.clamp,
  ids.guarded,
  ids.tokens,
  ids.other,
];

const READER_KEY = 'reader-key-0123456789abcdef0123456789';
const SIGNING_KEY = 'reset-test-signing-key-0123456789abcdef';

let t: TestApp;
let live: RunningFixtures;
/** An app of its own: a clock the test moves (token expiry) and a logger the test reads (audit). */
let own: ReturnType<typeof createApp>;
let clock = Date.now();
const logged: { level: string; message: string; fields: Record<string, unknown> }[] = [];

beforeAll(async () => {
  t = await testApp({ WRITES: 'enabled' });
  await produceAt({
    bootstrap: t.bootstrap,
    topic: timed,
    partitions: 2,
    batches: [
      { timestamp: NOW - 3 * DAY, count: BATCH },
      { timestamp: NOW - 2 * DAY, count: BATCH },
      { timestamp: NOW - DAY, count: BATCH },
    ],
  });
  // Consumer, share and streams groups that had members and have none now: Empty, offsets kept.
  const past = await startFixtures({
    bootstrap: t.bootstrap,
    topics: [{ name: topic, partitions: 3, records: RECORDS }],
    groups: [
      ...SCENARIOS.map((s) => ({
        type: 'consumer' as const,
        groupId: idOf('consumer', s),
        topics: [topic],
        commit: COMMIT,
        clientId: `${run}-co`,
      })),
      ...(hasGroupType('share')
        ? [
            {
              type: 'share' as const,
              groupId: ids.share,
              topics: [topic, timed],
              offsetReset: 'earliest' as const,
              clientId: `${run}-sh`,
            },
          ]
        : []),
      ...(hasGroupType('streams')
        ? [{ type: 'streams' as const, groupId: ids.streams, topics: [topic], clientId: `${run}-st` }]
        : []),
    ],
  });
  await past.stop();
  // Classic groups made Empty by an admin commit, and one live classic group.
  live = await startFixtures({
    bootstrap: t.bootstrap,
    groups: [
      ...EMPTY_CLASSIC.map((groupId) => ({
        type: 'empty' as const,
        groupId,
        topics: [topic],
        commit: COMMIT,
      })),
      { type: 'classic', groupId: ids.live, topics: [topic], commit: COMMIT, clientId: `${run}-live` },
    ],
  });

  const config = loadConfig({
    KAFKA_BROKERS: t.bootstrap,
    AUTH: 'none',
    WRITES: 'enabled',
    RATE_LIMIT_PER_MINUTE: '0',
  });
  const record =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}) =>
      void logged.push({ level, message, fields });
  const logger: Logger = {
    debug: () => {},
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  };
  own = createApp({
    service: t.service.groups,
    security: securityFrom(config),
    logger,
    tokens: tokenSigner([SIGNING_KEY], () => clock),
  });
}, 600_000);

afterAll(async () => {
  await live?.stop();
  await t?.close();
});

interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

async function post<T = ResetPlanned>(
  groupId: string,
  body: Record<string, unknown>,
  options: {
    execute?: boolean;
    create?: boolean;
    ifMatch?: string;
    app?: ReturnType<typeof createApp>;
    auth?: string;
  } = {},
): Promise<Answer<T>> {
  const query = [options.execute && 'execute=true', options.create && 'create=true'].filter(Boolean);
  const res = await (options.app ?? t.app).request(
    `/groups/${encodeURIComponent(groupId)}/offsets/reset${query.length > 0 ? `?${query.join('&')}` : ''}`,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.ifMatch !== undefined && { 'if-match': options.ifMatch }),
        ...(options.auth !== undefined && { authorization: `Bearer ${options.auth}` }),
      },
      body: JSON.stringify(body),
    },
  );
  const headers = res.headers;
  const status = res.status;
  const json = (await t.checker.check('post', '/groups/{groupId}/offsets/reset', res)) as T;
  return { status, body: json, headers };
}

/** A dry run, then its execution with the token; both must succeed. */
async function planAndApply(groupId: string, body: Record<string, unknown>) {
  const plan = await post(groupId, body);
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
  const done = await post<ResetExecuted>(
    groupId,
    { type: body.type, planToken: plan.body.planToken },
    { execute: true },
  );
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect(done.body.status).toBe('executed');
  expect(done.body.partitions.filter((p) => p.error !== null)).toEqual([]);
  return { plan: plan.body, done: done.body };
}

/** Committed offsets as Kafka's Java Admin client reads them: `topic:partition` → offset. */
async function committed(groupId: string): Promise<Record<string, number>> {
  const read = await javaAdminOffsets({ bootstrap: t.bootstrap, groupId });
  return Object.fromEntries([...read.committed].map(([key, c]) => [key, c.offset]));
}

const all = (name: string, partitions: number, offset: number) =>
  Object.fromEntries(Array.from({ length: partitions }, (_, p) => [`${name}:${p}`, offset]));

const targets = (plan: ResetPlanned) =>
  Object.fromEntries(plan.partitions.map((p) => [`${p.topic}:${p.partition}`, p.target]));

/** Each scenario: the request, the targets the plan must show, and the offsets to read back after. */
const CASES: Record<
  Scenario,
  { body: () => Record<string, unknown>; planned: Record<string, number>; after: Record<string, number> }
> = {
  'to-earliest': {
    body: () => ({ scenario: 'to-earliest', allTopics: true }),
    planned: all(topic, 3, 0),
    after: all(topic, 3, 0),
  },
  'to-latest': {
    body: () => ({ scenario: 'to-latest', allTopics: true }),
    planned: all(topic, 3, RECORDS),
    after: all(topic, 3, RECORDS),
  },
  'to-offset': {
    body: () => ({ scenario: 'to-offset', offset: 5, topics: [{ topic }] }),
    planned: all(topic, 3, 5),
    after: all(topic, 3, 5),
  },
  'shift-by': {
    body: () => ({ scenario: 'shift-by', shiftBy: -3, allTopics: true }),
    planned: all(topic, 3, COMMIT - 3),
    after: all(topic, 3, COMMIT - 3),
  },
  'to-datetime': {
    // Between the first and the second batch: the second batch's first offset.
    body: () => ({
      scenario: 'to-datetime',
      datetime: new Date(NOW - 2.5 * DAY).toISOString(),
      topics: [{ topic: timed }],
    }),
    planned: all(timed, 2, BATCH),
    after: { ...all(topic, 3, COMMIT), ...all(timed, 2, BATCH) },
  },
  'by-duration': {
    body: () => ({ scenario: 'by-duration', duration: 'P1DT12H', topics: [{ topic: timed }] }),
    planned: all(timed, 2, 2 * BATCH),
    after: { ...all(topic, 3, COMMIT), ...all(timed, 2, 2 * BATCH) },
  },
  'to-current': {
    // Kafka's tool: the commit where there is one, the end where there is none.
    body: () => ({ scenario: 'to-current', topics: [{ topic }, { topic: timed }] }),
    planned: { ...all(topic, 3, COMMIT), ...all(timed, 2, TIMED_END) },
    after: { ...all(topic, 3, COMMIT), ...all(timed, 2, TIMED_END) },
  },
  'from-list': {
    body: () => ({
      scenario: 'from-list',
      offsets: [
        { topic, partition: 0, offset: 1 },
        { topic, partition: 2, offset: 1000 },
      ],
    }),
    planned: { [`${topic}:0`]: 1, [`${topic}:2`]: RECORDS },
    after: { [`${topic}:0`]: 1, [`${topic}:1`]: COMMIT, [`${topic}:2`]: RECORDS },
  },
};

describe.each(TYPES)('every scenario on an Empty %s group', (type) => {
  it.each(SCENARIOS)('%s: plans, executes, and Kafka reads back exactly the plan', async (scenario) => {
    const groupId = idOf(type, scenario);
    const { body, planned, after } = CASES[scenario];
    const { plan, done } = await planAndApply(groupId, { type, ...body() });
    expect(plan).toMatchObject({ status: 'planned', groupId, type, state: 'Empty', scenario });
    expect(targets(plan)).toEqual(planned);
    expect(done.partitions.map((p) => [`${p.topic}:${p.partition}`, p.after, p.error])).toEqual(
      plan.partitions.map((p) => [`${p.topic}:${p.partition}`, p.target, null]),
    );
    expect(await committed(groupId)).toEqual(after);
  });
});

describe('plans', () => {
  it('clamps targets outside [earliest, latest] and marks them', async () => {
    const { plan } = await planAndApply(ids.clamp, {
      type: 'classic',
      scenario: 'from-list',
      offsets: [
        { topic, partition: 0, offset: 999 },
        { topic, partition: 1, offset: 4 },
      ],
    });
    expect(plan.partitions).toEqual([
      {
        topic,
        partition: 0,
        current: COMMIT,
        earliest: 0,
        latest: RECORDS,
        requested: 999,
        target: RECORDS,
        clampedTo: 'latest',
        reason: `999 is above the latest offset ${RECORDS}`,
      },
      {
        topic,
        partition: 1,
        current: COMMIT,
        earliest: 0,
        latest: RECORDS,
        requested: 4,
        target: 4,
        clampedTo: null,
        reason: null,
      },
    ]);
    expect(await committed(ids.clamp)).toEqual({
      [`${topic}:0`]: RECORDS,
      [`${topic}:1`]: 4,
      [`${topic}:2`]: COMMIT,
    });
  });

  it('a shift below the log start is clamped to it', async () => {
    const plan = await post(ids.dry, {
      type: 'classic',
      scenario: 'shift-by',
      shiftBy: -100,
      allTopics: true,
    });
    expect(plan.status).toBe(200);
    for (const p of plan.body.partitions) {
      expect(p).toMatchObject({ requested: COMMIT - 100, target: 0, clampedTo: 'earliest' });
    }
  });

  it('a dry run changes nothing', async () => {
    const before = await committed(ids.dry);
    expect(before).toEqual(all(topic, 3, COMMIT));
    const plan = await post(ids.dry, { type: 'classic', scenario: 'to-earliest', allTopics: true });
    expect(plan.status).toBe(200);
    expect(targets(plan.body)).toEqual(all(topic, 3, 0));
    expect(plan.headers.get('etag')).toBe(`"${plan.body.planToken}"`);
    expect(await committed(ids.dry)).toEqual(before);
  });

  it('execute changes exactly the planned partitions (If-Match carries the token)', async () => {
    const plan = await post(ids.partial, {
      type: 'classic',
      scenario: 'to-earliest',
      topics: [{ topic, partitions: [0, 2] }],
    });
    expect(plan.status).toBe(200);
    expect(plan.body.partitions.map((p) => p.partition)).toEqual([0, 2]);
    const etag = plan.headers.get('etag') ?? '';
    const done = await post<ResetExecuted>(
      ids.partial,
      { type: 'classic' },
      { execute: true, ifMatch: etag },
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await committed(ids.partial)).toEqual({
      [`${topic}:0`]: 0,
      [`${topic}:1`]: COMMIT,
      [`${topic}:2`]: 0,
    });
  });

  it('a shift of partitions without a commit is a 400 naming them, as Kafka refuses it', async () => {
    const res = await post<Problem>(ids.dry, {
      type: 'classic',
      scenario: 'shift-by',
      shiftBy: 1,
      topics: [{ topic: timed }],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]).toMatchObject({ in: 'body', name: 'shiftBy' });
    expect(res.body.detail).toContain(`${timed}:0`);
  });

  it('an unknown topic or partition is a 400 naming it', async () => {
    const res = await post<Problem>(ids.dry, {
      type: 'classic',
      scenario: 'to-earliest',
      topics: [{ topic, partitions: [7] }, { topic: `${run}-nope` }],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]).toMatchObject({ in: 'body', name: 'topics' });
    expect(res.body.detail).toContain(`${topic}:7`);
    expect(res.body.detail).toContain(`${run}-nope`);
  });

  it('invalid combinations are 400s naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'classic', scenario: 'to-offset', allTopics: true }, 'offset'],
      [{ type: 'classic', scenario: 'to-earliest' }, 'allTopics'],
      [{ type: 'classic', scenario: 'to-earliest', allTopics: false }, 'allTopics'],
      [{ type: 'classic', scenario: 'to-earliest', allTopics: true, topics: [{ topic }] }, 'topics'],
      [{ type: 'classic', scenario: 'to-earliest', allTopics: true, offset: 3 }, 'offset'],
      [{ type: 'classic', scenario: 'by-duration', duration: '1 hour', allTopics: true }, 'duration'],
      [
        { type: 'classic', scenario: 'to-datetime', datetime: '2026-11-30 20:00', allTopics: true },
        'datetime',
      ],
      [{ type: 'share', scenario: 'shift-by', shiftBy: 1, allTopics: true }, 'scenario'],
      [{ scenario: 'to-earliest', allTopics: true }, 'type'],
      [{ type: 'classic' }, 'scenario'],
    ];
    for (const [body, field] of cases) {
      const res = await post<Problem>(ids.dry, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(
        res.body.errors?.map((e) => e.name),
        JSON.stringify(res.body),
      ).toContain(field);
    }
    expect(await committed(ids.dry)).toEqual(all(topic, 3, COMMIT));
  });
});

describe('the plan token', () => {
  it('executing the same token again answers already-applied and sends nothing; moved elsewhere, 409', async () => {
    const body = { type: 'classic', scenario: 'to-offset', offset: 3, topics: [{ topic }] };
    const plan = await post(ids.again, body);
    expect(plan.status).toBe(200);
    expect(plan.body.sent).toBe(false);
    const execute = () =>
      post<ResetExecuted | ResetAlreadyApplied>(
        ids.again,
        { type: 'classic', planToken: plan.body.planToken },
        { execute: true },
      );
    const first = await execute();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ status: 'executed', sent: true });
    const second = await execute();
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toMatchObject({ status: 'already-applied', sent: false });
    expect(second.body.partitions).toEqual(first.body.partitions);
    expect(await committed(ids.again)).toEqual(all(topic, 3, 3));
    // Elsewhere since: neither the plan's start nor its target.
    await commitOffsets({
      bootstrap: t.bootstrap,
      groupId: ids.again,
      offsets: [{ topic, partition: 2, offset: 5 }],
    });
    const third = await post<Problem>(
      ids.again,
      { type: 'classic', planToken: plan.body.planToken },
      { execute: true },
    );
    expect(third.status, JSON.stringify(third.body)).toBe(409);
    expect(third.body).toMatchObject({
      type: '/problems/plan-stale',
      partitions: [{ topic, partition: 2 }],
      sent: false,
    });
    expect(await committed(ids.again)).toEqual({ ...all(topic, 3, 3), [`${topic}:2`]: 5 });
  });

  it('a plan made stale by a commit since is a 409 plan-stale, and nothing is applied', async () => {
    const plan = await post(ids.stale, { type: 'classic', scenario: 'to-earliest', allTopics: true });
    expect(plan.status).toBe(200);
    await commitOffsets({
      bootstrap: t.bootstrap,
      groupId: ids.stale,
      offsets: [{ topic, partition: 1, offset: 12 }],
    });
    const res = await post<Problem>(
      ids.stale,
      { type: 'classic', planToken: plan.body.planToken },
      { execute: true },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body).toMatchObject({
      type: '/problems/plan-stale',
      groupId: ids.stale,
      partitions: [{ topic, partition: 1 }],
      sent: false,
    });
    expect(await committed(ids.stale)).toEqual({ ...all(topic, 3, COMMIT), [`${topic}:1`]: 12 });
  });

  it('execute without a token, or with a tampered, foreign, mismatched or expired one, is a 400 naming why', async () => {
    const body = { type: 'classic', scenario: 'to-earliest', allTopics: true };
    const plan = await post(ids.tokens, body, { app: own });
    expect(plan.status).toBe(200);
    const token = plan.body.planToken;
    const refused = async (groupId: string, sent: Record<string, unknown>, why: string | RegExp) => {
      const res = await post<Problem>(groupId, sent, { execute: true, app: own });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.errors?.[0]?.name).toBe('planToken');
      expect(res.body.detail).toMatch(why);
    };
    await refused(ids.tokens, { type: 'classic' }, 'send its planToken');
    const tampered = `${token.slice(0, -3)}${token.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    await refused(ids.tokens, { type: 'classic', planToken: tampered }, /bad-signature|malformed/);
    await refused(ids.tokens, { type: 'classic', planToken: 'not-a-token' }, 'malformed');
    await refused(ids.other, { type: 'classic', planToken: token }, 'another group');
    await refused(ids.tokens, { ...body, scenario: 'to-latest', planToken: token }, 'another reset');
    // A token of another deployment (another key) is refused like a tampered one.
    const foreign = await post(ids.tokens, body);
    await refused(ids.tokens, { type: 'classic', planToken: foreign.body.planToken }, 'bad-signature');
    clock += 11 * 60_000;
    try {
      await refused(ids.tokens, { type: 'classic', planToken: token }, 'expired');
    } finally {
      clock = Date.now();
    }
    expect(await committed(ids.tokens)).toEqual(all(topic, 3, COMMIT));
    expect(await committed(ids.other)).toEqual(all(topic, 3, COMMIT));
  });

  it('every dry run and execute is one audit line with the offsets before and after', async () => {
    const before = logged.length;
    const plan = await post(
      ids.tokens,
      { type: 'classic', scenario: 'to-offset', offset: 2, topics: [{ topic, partitions: [1] }] },
      { app: own },
    );
    expect(plan.status).toBe(200);
    const done = await post<ResetExecuted>(
      ids.tokens,
      { type: 'classic', planToken: plan.body.planToken },
      { execute: true, app: own },
    );
    expect(done.status).toBe(200);
    const audit = logged.slice(before).filter((l) => l.message === 'audit');
    expect(audit.map((l) => [l.fields.operation, l.fields.dryRun, l.fields.outcome])).toEqual([
      ['resetGroupOffsets', true, 'done'],
      ['resetGroupOffsets', false, 'done'],
    ]);
    for (const line of audit) {
      expect(line.fields.partitions).toEqual([
        { topic, partition: 1, before: COMMIT, after: 2, ...(line.fields.dryRun ? { clampedTo: null } : {}) },
      ]);
      expect(JSON.stringify(line.fields)).not.toContain(plan.body.planToken);
    }
    expect(await committed(ids.tokens)).toEqual({ ...all(topic, 3, COMMIT), [`${topic}:1`]: 2 });
  });
});

describe('refusals', () => {
  it('a live group is a 409 group-not-empty naming its members, and nothing changes', async () => {
    const before = await committed(ids.live);
    const res = await post<Problem & { members?: { clientId: string }[] }>(ids.live, {
      type: 'classic',
      scenario: 'to-earliest',
      allTopics: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.type).toBe('/problems/group-not-empty');
    expect(res.body.members?.map((m) => m.clientId)).toEqual([`${run}-live-0`]);
    expect(await committed(ids.live)).toEqual(before);
  });

  it('a group of another type is a 409 group-type-mismatch', async () => {
    const res = await post<Problem>(idOf('consumer', 'to-earliest'), {
      type: 'classic',
      scenario: 'to-earliest',
      allTopics: true,
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      type: '/problems/group-type-mismatch',
      expectedType: 'classic',
      actualType: 'consumer',
    });
  });

  it('a reset of a missing id is a 404 and creates no group', async () => {
    // A type the broker does not serve is a 501 (group-type-unavailable), not this test's concern.
    for (const type of (['classic', 'consumer', 'share'] as const).filter(hasGroupType)) {
      const dry = await post<Problem>(ids.missing, { type, scenario: 'to-earliest', allTopics: true });
      expect(dry.status, JSON.stringify(dry.body)).toBe(404);
    }
    // A genuine token of another group, executed against the missing id.
    const plan = await post(ids.other, { type: 'classic', scenario: 'to-earliest', allTopics: true });
    const done = await post<Problem>(
      ids.missing,
      { type: 'classic', planToken: plan.body.planToken },
      { execute: true },
    );
    expect(done.status).toBe(404);
    const groups = await javaAdminListGroups(t.bootstrap);
    expect(groups.has(ids.other)).toBe(true);
    expect(groups.has(ids.missing)).toBe(false);
  });

  it('a caller with read grants only gets 403, and nothing changes', async () => {
    const hash = createHash('sha256').update(READER_KEY).digest('hex');
    const config = loadConfig({
      KAFKA_BROKERS: t.bootstrap,
      AUTH_API_KEYS: `reader:${hash}`,
      AUTH_GRANTS: JSON.stringify({ reader: { groups: `${run}-*`, actions: ['read', 'offsets'] } }),
      WRITES: 'enabled',
      RATE_LIMIT_PER_MINUTE: '0',
    });
    const reader = createApp({ service: t.service.groups, security: securityFrom(config) });
    const body = { type: 'classic', scenario: 'to-earliest', allTopics: true };
    const dry = await post<Problem>(ids.guarded, body, { app: reader, auth: READER_KEY });
    expect(dry.status, JSON.stringify(dry.body)).toBe(403);
    const plan = await post(ids.guarded, body);
    expect(plan.status).toBe(200);
    const done = await post<Problem>(
      ids.guarded,
      { type: 'classic', planToken: plan.body.planToken },
      { app: reader, auth: READER_KEY, execute: true },
    );
    expect(done.status).toBe(403);
    expect(await committed(ids.guarded)).toEqual(all(topic, 3, COMMIT));
  });
});

describe.runIf(hasGroupType('share'))('a share group', () => {
  const share = async () => {
    const read = await javaAdminOffsets({ bootstrap: t.bootstrap, groupId: ids.share, share: true });
    return Object.fromEntries([...read.share].map(([key, s]) => [key, s.startOffset]));
  };

  // Seen on Kafka 4.1.2: AlterShareGroupOffsets answers without error, yet the start offsets of
  // partitions the group has consumed stay where they were (Kafka's Java Admin reads them back
  // unchanged); 4.2.2 and 4.4.0 apply them.
  it.runIf(kafkaAtLeast(4, 2))(
    'to-earliest, to-datetime and to-latest set the start offsets Kafka reads back',
    async () => {
      const earliest = await planAndApply(ids.share, {
        type: 'share',
        scenario: 'to-earliest',
        topics: [{ topic }],
      });
      expect(targets(earliest.plan)).toEqual(all(topic, 3, 0));
      expect(await share()).toMatchObject(all(topic, 3, 0));

      const datetime = await planAndApply(ids.share, {
        type: 'share',
        scenario: 'to-datetime',
        datetime: new Date(NOW - 1.5 * DAY).toISOString(),
        topics: [{ topic: timed }],
      });
      expect(targets(datetime.plan)).toEqual(all(timed, 2, 2 * BATCH));
      expect(await share()).toMatchObject({ ...all(topic, 3, 0), ...all(timed, 2, 2 * BATCH) });

      const latest = await planAndApply(ids.share, { type: 'share', scenario: 'to-latest', allTopics: true });
      expect(targets(latest.plan)).toEqual({ ...all(topic, 3, RECORDS), ...all(timed, 2, TIMED_END) });
      expect(await share()).toEqual({ ...all(topic, 3, RECORDS), ...all(timed, 2, TIMED_END) });
    },
  );

  it.runIf(!kafkaAtLeast(4, 2))(
    'on Kafka 4.1, which applies nothing, an execute says so and changes nothing',
    async () => {
      const before = await share();
      const plan = await post(ids.share, { type: 'share', scenario: 'to-latest', allTopics: true });
      expect(plan.status, JSON.stringify(plan.body)).toBe(200);
      const done = await post<Problem>(
        ids.share,
        { type: 'share', planToken: plan.body.planToken },
        { execute: true },
      );
      expect(done.status, JSON.stringify(done.body)).toBe(502);
      expect(done.body.detail).toContain('nothing was applied');
      expect(await share()).toEqual(before);
    },
  );

  it('other scenarios are a 400 naming why', async () => {
    const res = await post<Problem>(ids.share, {
      type: 'share',
      scenario: 'shift-by',
      shiftBy: 1,
      allTopics: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]).toMatchObject({ name: 'scenario' });
    expect(res.body.detail).toContain('share group');
  });
});

describe.runIf(hasGroupType('streams'))('a streams group', () => {
  it('to-earliest commits the planned offsets', async () => {
    const { plan } = await planAndApply(ids.streams, {
      type: 'streams',
      scenario: 'to-earliest',
      topics: [{ topic }],
    });
    expect(targets(plan)).toEqual(all(topic, 3, 0));
    expect(await committed(ids.streams)).toMatchObject(all(topic, 3, 0));
  });
});

describe('a share group created by its reset (create=true)', () => {
  const id = `${run}-share-new`;
  const starts = [
    { topic, partition: 0, offset: 3 },
    { topic, partition: 1, offset: 5 },
    { topic, partition: 2, offset: 7 },
  ];
  const body = { type: 'share', scenario: 'from-list', offsets: starts };

  it.runIf(createsShareGroups())(
    'plans a group that does not exist yet, creates it with its start offsets, and a share consumer starts there',
    async () => {
      // Without create=true nothing changes: a missing group is a 404, dry run or not.
      const missing = await post<Problem>(id, body);
      expect(missing.status).toBe(404);
      const notShare = await post<Problem>(
        id,
        { type: 'classic', scenario: 'to-earliest', topics: [{ topic }] },
        { create: true },
      );
      expect(notShare.status).toBe(400);
      expect(notShare.body.errors?.[0]).toMatchObject({ in: 'query', name: 'create' });
      const noTopics = await post<Problem>(
        id,
        { type: 'share', scenario: 'to-earliest', allTopics: true },
        { create: true },
      );
      expect(noTopics.status).toBe(400);
      expect(noTopics.body.errors?.[0]).toMatchObject({ name: 'allTopics' });

      const plan = await post(id, body, { create: true });
      expect(plan.status, JSON.stringify(plan.body)).toBe(200);
      expect(plan.body).toMatchObject({ creates: true, state: 'Dead', groupEpoch: null, sent: false });
      expect(plan.body.partitions.map((p) => [p.partition, p.current, p.target])).toEqual([
        [0, null, 3],
        [1, null, 5],
        [2, null, 7],
      ]);
      // The execute needs create=true too: without it the group is still missing.
      const token = { type: 'share', planToken: plan.body.planToken };
      expect((await post<Problem>(id, token, { execute: true })).status).toBe(404);
      expect((await javaAdminListGroups(t.bootstrap)).has(id)).toBe(false);

      const done = await post<ResetExecuted>(id, token, { execute: true, create: true });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body).toMatchObject({ status: 'executed', sent: true });
      expect(done.body.partitions.filter((p) => p.error !== null)).toEqual([]);
      const again = await post<ResetAlreadyApplied>(id, token, { execute: true, create: true });
      expect(again.body).toMatchObject({ status: 'already-applied', sent: false });

      const read = await javaAdminOffsets({ bootstrap: t.bootstrap, groupId: id, share: true });
      expect(Object.fromEntries([...read.share].map(([key, o]) => [key, o.startOffset]))).toEqual({
        [`${topic}:0`]: 3,
        [`${topic}:1`]: 5,
        [`${topic}:2`]: 7,
      });
      // Kafka's share consumer, the group's first member, is delivered each partition from its start.
      const expected = starts.reduce((n, s) => n + RECORDS - s.offset, 0);
      const delivered = await javaShareConsume(t.bootstrap, id, topic, expected);
      expect(
        starts.map((s) => {
          const offsets = delivered.get(s.partition) ?? [];
          return [s.partition, offsets[0], offsets.length];
        }),
      ).toEqual(starts.map((s) => [s.partition, s.offset, RECORDS - s.offset]));
    },
  );

  it.runIf(hasGroupType('share') && !createsShareGroups())(
    'on Kafka 4.1 (share groups, but none created by a reset), create=true is a 501 naming the versions and sends nothing',
    async () => {
      const res = await post<Problem>(id, body, { create: true });
      expect(res.status, JSON.stringify(res.body)).toBe(501);
      expect(res.body).toMatchObject({
        type: '/problems/share-group-creation-unsupported',
        groupId: id,
        kafkaVersion: '4.1',
        requiredKafkaVersion: '4.2',
      });
      expect(res.body.detail).toContain('Kafka 4.2 or later');
      expect((await javaAdminListGroups(t.bootstrap)).has(id)).toBe(false);
    },
  );

  it.runIf(!hasGroupType('share'))(
    'on a Kafka without share groups, create=true is a clear 501',
    async () => {
      const res = await post<Problem>(id, body, { create: true });
      expect(res.status, JSON.stringify(res.body)).toBe(501);
      expect(res.body.type).toBe('/problems/group-type-unavailable');
    },
  );
});
