/**
 * The write gate and the audit line: WRITES, grants (404 for what the caller cannot see, 403 for
 * what it sees but may not write), the type check, and one audit line per attempt. No broker: the
 * describe is a table of groups, which is all the gate asks of the service.
 */

import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/auth/authenticate.js';
import { OPEN_PERMISSIONS, Permissions, parseGrants } from '../../src/auth/grants.js';
import { BrokerTimeoutError } from '../../src/broker/errors.js';
import type { WritesSetting } from '../../src/config.js';
import { GroupNotFoundError, GroupTypeMismatchError } from '../../src/groups/errors.js';
import type { Group, GroupType } from '../../src/groups/model.js';
import type { GroupService } from '../../src/groups/service.js';
import { guardedWrite } from '../../src/http/audit.js';
import type { Logger } from '../../src/logger.js';
import { errorResponse } from '../../src/routes/errors.js';

type Logged = { level: string; message: string; fields: Record<string, unknown> };

function recordingLogger(): Logger & { logged: Logged[] } {
  const logged: Logged[] = [];
  const at =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}) =>
      void logged.push({ level, message, fields });
  return { logged, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const GROUPS: Record<string, GroupType> = { 'team-a-orders': 'consumer', 'team-b-billing': 'classic' };

/** describeGroup over GROUPS, counting calls: a refusal before Kafka must not call it. */
function groupsService() {
  const calls: string[] = [];
  const service = {
    async describeGroup(groupId: string, options: { expected?: GroupType } = {}) {
      calls.push(groupId);
      const type = GROUPS[groupId];
      if (!type)
        throw new GroupNotFoundError(groupId, { code: 69, name: 'GROUP_ID_NOT_FOUND', message: 'x' });
      if (options.expected && options.expected !== type)
        throw new GroupTypeMismatchError(groupId, options.expected, type);
      return { groupId, type, state: 'Empty', members: [] } as unknown as Group;
    },
  } as Pick<GroupService, 'describeGroup'> as GroupService;
  return { service, calls };
}

function app(principal: Principal, writes: WritesSetting) {
  const logger = recordingLogger();
  const { service, calls } = groupsService();
  const hono = new Hono();
  hono.use('*', async (c, next) => {
    c.set('principal', principal);
    await next();
  });
  hono.delete('/groups/:groupId', async (c) => {
    const groupId = c.req.param('groupId');
    const type = c.req.query('type') as GroupType;
    const body = await guardedWrite(
      c,
      { service, writes, logger },
      { operation: 'deleteGroup', action: 'delete', groupId, type },
      async (group, audit) => {
        audit.note({ deleted: { groupId: group.groupId }, planToken: 'secret-plan-token' });
        return { deleted: group.groupId };
      },
    );
    return c.json(body, 200);
  });
  // A write whose request left for a broker that never answered.
  hono.delete('/groups/:groupId/offsets', async (c) => {
    const groupId = c.req.param('groupId');
    const type = c.req.query('type') as GroupType;
    await guardedWrite(
      c,
      { service, writes, logger },
      { operation: 'deleteGroupOffsets', action: 'delete', groupId, type },
      async (_group, audit) => {
        audit.progress.sent = true;
        throw new BrokerTimeoutError('127.0.0.1:9092', 'OffsetDelete', 5000);
      },
    );
    return c.json({}, 200);
  });
  hono.onError((e, c) => errorResponse(e, c, logger));
  const call = async (groupId: string, type: GroupType) => {
    const res = await hono.request(`/groups/${groupId}?type=${type}`, { method: 'DELETE' });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const callSent = async (groupId: string, type: GroupType) => {
    const res = await hono.request(`/groups/${groupId}/offsets?type=${type}`, { method: 'DELETE' });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { call, callSent, logger, calls };
}

const anonymous: Principal = { id: 'anonymous', permissions: OPEN_PERMISSIONS };
const keyed = (grants: unknown): Principal => ({
  id: 'key:ops',
  permissions: new Permissions(parseGrants(grants, 'test')),
});
const audits = (logger: { logged: Logged[] }) => logger.logged.filter((l) => l.message === 'audit');

describe('the write gate', () => {
  it('refuses every write with AUTH=none unless WRITES=enabled, without asking Kafka', async () => {
    for (const writes of ['unset', 'disabled'] as const) {
      const { call, calls } = app(anonymous, writes);
      const answer = await call('team-a-orders', 'consumer');
      expect(answer.status).toBe(403);
      expect(answer.body.type).toBe('/problems/writes-disabled');
      expect(calls).toEqual([]);
    }
    expect((await app(anonymous, 'enabled').call('team-a-orders', 'consumer')).status).toBe(200);
  });

  it('makes WRITES=disabled a kill switch over the grants', async () => {
    const owner = keyed({ groups: '*', actions: ['read', 'delete'] });
    expect((await app(owner, 'unset').call('team-a-orders', 'consumer')).status).toBe(200);
    expect((await app(owner, 'enabled').call('team-a-orders', 'consumer')).status).toBe(200);
    const off = await app(owner, 'disabled').call('team-a-orders', 'consumer');
    expect(off.status).toBe(403);
    expect(off.body.type).toBe('/problems/writes-disabled');
  });

  it('answers 403 naming the action to a caller that sees the group but only reads it', async () => {
    const { call, calls } = app(
      keyed({ groups: '*', actions: ['read', 'offsets', 'reset-offsets'] }),
      'unset',
    );
    const answer = await call('team-a-orders', 'consumer');
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({
      type: '/problems/forbidden',
      action: 'delete',
      groupId: 'team-a-orders',
    });
    expect(answer.body.detail).toContain("'delete'");
    expect(calls).toEqual([]);
  });

  it('answers 404 for a group the caller cannot see, as for a missing one', async () => {
    const { call, calls } = app(keyed({ groups: 'team-a-*', actions: ['read', 'delete'] }), 'unset');
    const hidden = await call('team-b-billing', 'classic');
    const missing = await call('team-a-nothing', 'classic');
    expect(hidden.status).toBe(404);
    expect(hidden.body.type).toBe('/problems/group-not-found');
    expect(calls).toEqual(['team-a-nothing']);
    // Nothing tells the hidden group from the missing one but its id.
    expect(missing.status).toBe(404);
    expect(Object.keys(hidden.body).sort()).toEqual(Object.keys(missing.body).sort());
    expect(missing.body.kafkaError).toBeUndefined();
  });

  it('answers 404 when the grants cover the id only for other types', async () => {
    const { call } = app(keyed({ groups: '*', types: ['share'], actions: ['read', 'delete'] }), 'unset');
    expect((await call('team-a-orders', 'consumer')).status).toBe(404);
  });

  it('grants a write by its own action and type, read grant or not', async () => {
    const writer = keyed({ groups: 'team-a-*', types: ['consumer'], actions: ['delete'] });
    expect((await app(writer, 'unset').call('team-a-orders', 'consumer')).status).toBe(200);
    // The same grant, a type it does not name: the group is of that type? It cannot see it.
    expect((await app(writer, 'unset').call('team-a-orders', 'classic')).status).toBe(404);
  });

  it('requires the type: another type is a 409 mismatch, a missing group a 404', async () => {
    const { call } = app(keyed({ groups: '*', actions: ['read', 'delete'] }), 'unset');
    const mismatch = await call('team-a-orders', 'classic');
    expect(mismatch.status).toBe(409);
    expect(mismatch.body).toMatchObject({ expectedType: 'classic', actualType: 'consumer' });
    expect((await call('nope', 'classic')).status).toBe(404);
  });
});

describe('the audit line', () => {
  it('logs one line for a write done, with the principal, the route, the group and the notes', async () => {
    const { call, logger } = app(keyed({ groups: '*', actions: ['read', 'delete'] }), 'unset');
    await call('team-a-orders', 'consumer');
    const lines = audits(logger);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe('info');
    expect(lines[0]?.fields).toEqual({
      principal: 'key:ops',
      operation: 'deleteGroup',
      action: 'delete',
      method: 'DELETE',
      route: '/groups/:groupId',
      path: '/groups/team-a-orders',
      groupId: 'team-a-orders',
      type: 'consumer',
      dryRun: false,
      outcome: 'done',
      sent: false,
      status: 200,
      deleted: { groupId: 'team-a-orders' },
      planToken: '[redacted]',
    });
  });

  it('logs refusals as warnings naming the problem, and never a token', async () => {
    const { call, logger } = app(
      keyed([
        { groups: '*', actions: ['read'] },
        { groups: 'm*', actions: ['delete'] },
      ]),
      'unset',
    );
    await call('team-a-orders', 'consumer');
    await call('missing', 'classic');
    const lines = audits(logger);
    expect(lines.map((l) => [l.level, l.fields.outcome, l.fields.status, l.fields.problem])).toEqual([
      ['warn', 'refused', 403, 'forbidden'],
      ['warn', 'refused', 404, 'group-not-found'],
    ]);
    expect(JSON.stringify(logger.logged)).not.toContain('secret-plan-token');
  });

  it('logs AUTH=none refusals too, as the anonymous principal', async () => {
    const { call, logger } = app(anonymous, 'unset');
    await call('team-a-orders', 'consumer');
    expect(audits(logger)[0]?.fields).toMatchObject({
      principal: 'anonymous',
      outcome: 'refused',
      problem: 'writes-disabled',
    });
  });

  it('says whether the write was sent: in the problem and the line of a write Kafka did not answer, and of one refused before', async () => {
    const { call, callSent, logger } = app(
      keyed([
        { groups: '*', actions: ['read'] },
        { groups: 'team-a-*', actions: ['delete'] },
      ]),
      'unset',
    );
    const unanswered = await callSent('team-a-orders', 'consumer');
    expect(unanswered.status).toBe(504);
    expect(unanswered.body.sent).toBe(true);
    const refused = await call('team-b-billing', 'classic');
    expect(refused.status).toBe(403);
    expect(refused.body.sent).toBe(false);
    expect(audits(logger).map((l) => [l.fields.status, l.fields.sent])).toEqual([
      [504, true],
      [403, false],
    ]);
  });
});
