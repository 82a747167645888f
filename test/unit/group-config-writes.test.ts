/**
 * PATCH /groups/{groupId}/configs without a broker: Kafka's check (validateOnly) runs before the
 * change, a refusal applies nothing, and every attempt logs its audit line with the action
 * `configs` and the change asked. The broker suite (test/integration/group-configs.test.ts) does
 * the same against Kafka.
 */

import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { describeKafkaError } from '../../src/broker/errors.js';
import { loadConfig } from '../../src/config.js';
import { type GroupConfigChange, GroupConfigInvalidError } from '../../src/groups/configs.js';
import type { Group } from '../../src/groups/model.js';
import type { GroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';
import type { Logger } from '../../src/logger.js';

type Logged = { level: string; message: string; fields: Record<string, unknown> };

function setup(refuse: boolean) {
  const logged: Logged[] = [];
  const at =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}) =>
      void logged.push({ level, message, fields });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  const alters: boolean[] = [];
  const service = {
    async describeGroup(groupId: string) {
      return { groupId, type: 'share', state: 'Empty', members: [] } as unknown as Group;
    },
    async alterGroupConfigs(groupId: string, change: GroupConfigChange, validateOnly: boolean) {
      alters.push(validateOnly);
      if (refuse) {
        const error = describeKafkaError(
          40,
          'Invalid value 1 for configuration share.record.lock.duration.ms',
        );
        throw new GroupConfigInvalidError(
          groupId,
          [{ name: Object.keys(change.set)[0] ?? '', field: 'set', value: '1' }],
          error,
        );
      }
    },
    async groupConfigs() {
      return [];
    },
  } as unknown as GroupService;
  const config = loadConfig({ AUTH: 'none', WRITES: 'enabled', RATE_LIMIT_PER_MINUTE: '0' });
  const app = createApp({ service, security: securityFrom(config), logger });
  const patch = (body: unknown) =>
    app.request('/groups/s1/configs?type=share', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  return { patch, alters, audits: () => logged.filter((l) => l.message === 'audit').map((l) => l.fields) };
}

describe('PATCH /groups/{groupId}/configs', () => {
  it('asks Kafka to check first, then applies, and logs one audit line', async () => {
    const { patch, alters, audits } = setup(false);
    const res = await patch({ set: { 'share.record.lock.duration.ms': '15000' } });
    expect(res.status).toBe(200);
    expect(alters).toEqual([true, false]);
    expect(audits()).toEqual([
      expect.objectContaining({
        operation: 'changeGroupConfigs',
        action: 'configs',
        groupId: 's1',
        type: 'share',
        outcome: 'done',
        set: { 'share.record.lock.duration.ms': '15000' },
        delete: [],
      }),
    ]);
  });

  it('applies nothing when Kafka refuses: 400 naming the config, audit line refused', async () => {
    const { patch, alters, audits } = setup(true);
    const res = await patch({ set: { 'share.record.lock.duration.ms': '1' } });
    expect(res.status).toBe(400);
    // biome-ignore lint/suspicious/noExplicitAny: a problem body
    const body = (await res.json()) as any;
    expect(body.errors[0]).toMatchObject({
      in: 'body',
      name: 'set.share.record.lock.duration.ms',
      received: '1',
      message:
        "config 'share.record.lock.duration.ms': Invalid value 1 for configuration share.record.lock.duration.ms",
    });
    expect(body.kafkaError).toMatchObject({ code: 40, name: 'INVALID_CONFIG' });
    expect(alters).toEqual([true]);
    expect(audits()).toEqual([
      expect.objectContaining({ outcome: 'refused', status: 400, problem: 'invalid-input' }),
    ]);
  });

  it('refuses a config both set and deleted, before asking Kafka', async () => {
    const { patch, alters } = setup(false);
    const res = await patch({ set: { a: '1' }, delete: ['a'] });
    expect(res.status).toBe(400);
    expect(alters).toEqual([]);
  });
});
