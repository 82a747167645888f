/**
 * HEAD on a streamed route answers the headers and leaves nothing running: an event stream asked
 * with HEAD gives its slot back, so a caller's HEADs do not use up its streams. The group service
 * is a stand-in that knows one group and never answers a poll (no broker needed to hold a slot).
 */

import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { GroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';

const group = { groupId: 'g1', type: 'classic', state: 'Empty', members: [] };
const stub = new Proxy({} as GroupService, {
  get: (_target, name) => {
    if (name === 'then') return undefined;
    if (name === 'describeGroup') return async () => group;
    if (name === 'describeCluster') return async () => ({ clusterId: 'unit' });
    return () => new Promise(() => undefined);
  },
});

describe('HEAD on an event stream', () => {
  it('answers 200 text/event-stream with no body and holds no stream slot', async () => {
    const config = loadConfig({
      KAFKA_BROKERS: '127.0.0.1:9',
      AUTH: 'none',
      RATE_LIMIT_PER_MINUTE: '0',
      EVENTS_MAX_STREAMS_PER_PRINCIPAL: '1',
    });
    const app = createApp({
      service: stub,
      security: securityFrom(config),
      events: { limits: config.events, streaming: true },
    });
    for (let i = 0; i < 3; i++) {
      const head = await app.request('/groups/g1/events', { method: 'HEAD' });
      expect(head.status, `HEAD ${i}`).toBe(200);
      expect(head.headers.get('content-type')).toContain('text/event-stream');
      expect(head.body).toBeNull();
    }
    const get = await app.request('/groups/g1/events');
    expect(get.status).toBe(200);
    await get.body?.cancel();
  });
});
