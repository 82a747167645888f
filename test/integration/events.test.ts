/**
 * Server-sent events against the real broker, read by a real EventSource client (the `eventsource`
 * package) from the Node server: a rebalance made by Kafka's own clients (a second consumer joins)
 * arrives as a change with the new epoch and members; a reconnect with Last-Event-ID gets the
 * changes since its snapshot and nothing it has seen; the server ends a stream at its lifetime and
 * the client resumes by itself; the stream cap answers 429; a type mismatch is a 409 before any
 * stream; the buffered Lambda app answers 501. Polls are short (300 ms) so the file stays quick.
 */

import type { ChildProcess } from 'node:child_process';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { securityFrom } from '../../src/http/security.js';
import { silentLogger } from '../../src/logger.js';
import { type RunningServer, startServer } from '../../src/runtime/node.js';
import { clustersOf, createService } from '../../src/wiring.js';
import { fixtureArgs, type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { spawnJavaClient } from '../broker-harness/java-client.js';
import { waitFor } from '../broker-harness/wait.js';
import { hasGroupType } from '../support/kafka-version.js';

const run = uniqueName('sse');
const groupId = `${run}-group`;
const topic = `${run}-topic`;
// KIP-848 groups carry an epoch; on brokers without them the classic protocol shows members only.
const type = hasGroupType('consumer') ? 'consumer' : 'classic';
const CAP = 3;
const LIFETIME_MS = 4000;

const env = {
  AUTH: 'none',
  RATE_LIMIT_PER_MINUTE: '0',
  EVENTS_MIN_POLL_INTERVAL_MS: '100',
  EVENTS_POLL_INTERVAL_MS: '300',
  EVENTS_LAG_INTERVAL_MS: '1000',
  EVENTS_HEARTBEAT_MS: '500',
  EVENTS_MAX_LIFETIME_MS: String(LIFETIME_MS),
  EVENTS_MAX_STREAMS_PER_PRINCIPAL: String(CAP),
};

let server: RunningServer;
let first: RunningFixtures;
/** The consumer that joins later: its fixture is never "ready" alone (it holds half the partitions). */
let second: ChildProcess | undefined;

interface Received {
  event: string;
  id: string;
  data: Record<string, unknown>;
  at: number;
}

/** An EventSource that records every event of the stream's kinds, in order, and how often it opened. */
function watch(path: string, lastEventId?: string, base?: string) {
  const events: Received[] = [];
  let opens = 0;
  let refusedWith: number | undefined;
  const source = new EventSource(`${base ?? server.url}${path}`, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: {
          ...Object.fromEntries(new Headers(init?.headers as ConstructorParameters<typeof Headers>[0])),
          ...(lastEventId && { 'Last-Event-ID': lastEventId }),
        },
      }),
  });
  source.addEventListener('open', () => {
    opens++;
    // Only the first connection sends the given id; EventSource sends its own after.
    lastEventId = undefined;
  });
  source.addEventListener('error', (e) => {
    refusedWith = e.code;
  });
  for (const event of ['group', 'removed', 'lag', 'end', 'poll-failed', 'overflow']) {
    source.addEventListener(event, (e) => {
      events.push({ event, id: e.lastEventId, data: JSON.parse(e.data), at: Date.now() });
    });
  }
  return {
    source,
    events,
    opens: () => opens,
    /** The HTTP status of the last refusal (the stream is CLOSED after one). */
    refusedWith: () => refusedWith,
    groups: () => events.filter((e) => e.event === 'group'),
    async until(what: string, test: (e: Received) => boolean, ms = 30_000): Promise<Received> {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        // Refused (a status other than 200): EventSource gives up, and so does the wait.
        if (source.readyState === EventSource.CLOSED) throw new Error(`${path}: the stream was refused`);
        const found = events.find((e) => e.event === what && test(e));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no ${what} event within ${ms} ms; got ${JSON.stringify(events.map((e) => e.event))}`);
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const members = (e: Received) => (e.data.members as unknown[]).length;

/**
 * A stream of `path` once the server has a slot for it: a stream closed by the client holds its
 * slot until the server notices, so a 429 is asked again (bounded); any other refusal fails.
 */
async function admitted(path: string): Promise<ReturnType<typeof watch>> {
  let refusals = 0;
  return waitFor(
    async () => {
      const stream = watch(path);
      await waitFor(() => stream.opens() > 0 || stream.source.readyState === EventSource.CLOSED, {
        timeoutMs: 10_000,
        what: `${path}: the stream opened or refused`,
      });
      if (stream.opens() > 0) return stream;
      stream.source.close();
      if (stream.refusedWith() !== 429)
        throw new Error(`${path}: the stream was refused (${stream.refusedWith()})`);
      refusals++;
      return undefined;
    },
    {
      timeoutMs: 10_000,
      what: () =>
        `a free stream slot for ${path} (${refusals} answers 429: the streams closed before still hold theirs)`,
    },
  );
}

beforeAll(async () => {
  const config = loadConfig({ KAFKA_BROKERS: inject('kafkaBrokers'), PORT: '0', ...env });
  server = await startServer(config, silentLogger);
  first = await startFixtures({
    bootstrap: inject('kafkaBrokers'),
    groups: [{ type, groupId, topics: [{ name: topic, partitions: 4, records: 5 }], members: 1 }],
  });
}, 180_000);

afterAll(async () => {
  second?.stdin?.end();
  second?.kill();
  await first?.stop();
  await server?.close();
});

describe('GET /groups/{groupId}/events', () => {
  let before: Received;
  let after: Received;

  it('sends the group, then a change with the new epoch and members when a second consumer joins', async () => {
    const stream = watch(`/groups/${encodeURIComponent(groupId)}/events`);
    try {
      before = await stream.until('group', (e) => members(e) === 1 && e.data.state === 'Stable');
      expect(before.data.changed).toContain('appeared');
      expect(before.data.type).toBe(type);
      expect(before.id).toMatch(/^[\w-]+\.[\w-]+$/);
      await stream.until('lag', (e) => e.data.groupId === groupId);

      const args = fixtureArgs({
        bootstrap: inject('kafkaBrokers'),
        groups: [{ type, groupId, topics: [topic], members: 1, clientId: 'second' }],
      });
      second = (await spawnJavaClient('Fixture.java', args, { logPrefix: 'fixture', stdin: 'pipe' })).child;
      after = await stream.until('group', (e) => members(e) === 2 && e.data.state === 'Stable');
      // The join may arrive in steps (Reconciling, then Stable): together they name every change.
      const changes = stream.groups().filter((e) => e.at > before.at);
      const changed = new Set(changes.flatMap((e) => e.data.changed as string[]));
      expect([...changed]).toEqual(expect.arrayContaining(['members', 'assignment']));
      expect(changed.has('appeared')).toBe(false);
      const clientIds = (after.data.members as { clientId: string }[]).map((m) => m.clientId).sort();
      expect(clientIds.some((id) => id.startsWith('second'))).toBe(true);
      if (type === 'consumer') {
        expect(after.data.epoch as number).toBeGreaterThan(before.data.epoch as number);
        expect(changed.has('epoch')).toBe(true);
      }
    } finally {
      stream.source.close();
    }
  }, 120_000);

  it('resumes from Last-Event-ID with the changes since that snapshot, not a replay', async () => {
    // From the snapshot taken before the rebalance: one change, naming what changed since.
    const behind = watch(`/groups/${encodeURIComponent(groupId)}/events`, before.id);
    try {
      const change = await behind.until('group', () => true);
      expect(change.data.changed).toEqual(expect.arrayContaining(['members']));
      expect(change.data.changed).not.toContain('appeared');
      expect(members(change)).toBe(2);

      const upToDate = watch(`/groups/${encodeURIComponent(groupId)}/events`, change.id);
      try {
        await upToDate.until('lag', () => true);
        // Clock wait: nothing is replayed for a second (a replay would come at once).
        await sleep(1000);
        expect(upToDate.groups()).toEqual([]);
      } finally {
        upToDate.source.close();
      }
    } finally {
      behind.source.close();
    }
  }, 60_000);

  it('ends the stream at its lifetime with retry:, and the client resumes by itself without a replay', async () => {
    const stream = watch(`/groups/${encodeURIComponent(groupId)}/events`);
    try {
      await stream.until('group', () => true);
      const end = await stream.until('end', () => true, LIFETIME_MS + 5000);
      expect(end.data).toMatchObject({ reason: 'lifetime', reconnectAfterMs: 1000 });
      // EventSource reconnects after `retry:` with the last id it saw as Last-Event-ID.
      const deadline = Date.now() + 10_000;
      while (stream.opens() < 2 && Date.now() < deadline) await sleep(50);
      expect(stream.opens()).toBe(2);
      const reopened = Date.now();
      // The resumed stream reads the broker again: a lag event after the reopening.
      await stream.until('lag', (e) => e.at > reopened, 10_000);
      // Clock wait: 1.5 s from the reopening with no group event replayed (a replay would come at once).
      await sleep(Math.max(0, reopened + 1500 - Date.now()));
      expect(stream.groups().filter((e) => e.at > reopened)).toEqual([]);
      expect(stream.events.some((e) => e.event === 'lag' && e.at > reopened)).toBe(true);
    } finally {
      stream.source.close();
    }
  }, 30_000);

  it('writes comment heartbeats between events', async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/groups/${encodeURIComponent(groupId)}/events`, {
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = Date.now() + 3000;
    while (!text.includes(': heartbeat') && Date.now() < until) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    controller.abort();
    expect(text).toMatch(/^: heartbeat$/m);
  });

  it('answers a type mismatch and a missing group before any stream starts', async () => {
    const other = type === 'consumer' ? 'classic' : 'consumer';
    const mismatch = await fetch(`${server.url}/groups/${encodeURIComponent(groupId)}/events?type=${other}`);
    expect(mismatch.status).toBe(409);
    expect(mismatch.headers.get('content-type')).toBe('application/problem+json');
    expect(await mismatch.json()).toMatchObject({ type: '/problems/group-type-mismatch', actualType: type });

    const missing = await fetch(`${server.url}/groups/${run}-missing/events`);
    expect(missing.status).toBe(404);
    const tooOften = await fetch(`${server.url}/groups/${encodeURIComponent(groupId)}/events?intervalMs=50`);
    expect(tooOften.status).toBe(400);
    expect(await tooOften.json()).toMatchObject({ errors: [{ name: 'intervalMs' }] });
  });
});

describe('a stream open longer than REQUEST_TIMEOUT_MS', () => {
  it('keeps polling: each poll has a deadline of its own, not what is left of the request that opened it', async () => {
    const config = loadConfig({
      KAFKA_BROKERS: inject('kafkaBrokers'),
      PORT: '0',
      ...env,
      REQUEST_TIMEOUT_MS: '1000',
      EVENTS_MAX_LIFETIME_MS: '10000',
    });
    const short = await startServer(config, silentLogger);
    const stream = watch(`/groups/${encodeURIComponent(groupId)}/events`, undefined, short.url);
    try {
      const opened = (await stream.until('group', () => true)).at;
      // Lag is sent every second: one well past the opening request's deadline shows polls still read.
      await stream.until('lag', (e) => e.at > opened + 2500, 8000);
      expect(stream.events.filter((e) => e.event === 'poll-failed')).toEqual([]);
    } finally {
      stream.source.close();
      await short.close();
    }
  }, 30_000);
});

describe('the stream cap', () => {
  it(`answers 429 too-many-streams beyond ${CAP} open streams of one caller, and frees a slot on close`, async () => {
    // The streams of the tests before are closed; the server notices within a moment (admitted).
    const open: ReturnType<typeof watch>[] = [];
    try {
      for (let i = 0; i < CAP; i++)
        open.push(
          await admitted(
            i === 0 ? `/groups.events?prefix=${run}` : `/groups/${encodeURIComponent(groupId)}/events`,
          ),
        );
      for (const s of open) await s.until('group', () => true);
      const refused = await fetch(`${server.url}/groups/${encodeURIComponent(groupId)}/events`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await refused.json()).toMatchObject({ type: '/problems/too-many-streams', limit: CAP });

      open.pop()?.source.close();
      let status = 429;
      for (let i = 0; i < 40 && status === 429; i++) {
        const controller = new AbortController();
        const res = await fetch(`${server.url}/groups/${encodeURIComponent(groupId)}/events`, {
          signal: controller.signal,
        });
        status = res.status;
        controller.abort();
        if (status === 429) await sleep(100);
      }
      expect(status).toBe(200);
    } finally {
      for (const s of open) s.source.close();
    }
  }, 60_000);
});

describe('GET /groups.events', () => {
  it('lists the matching groups, and /groups/events is still the group named events', async () => {
    // Admitted once the server has noticed the streams closed just before and freed their slots.
    const stream = await admitted(`/groups.events?prefix=${run}`);
    try {
      const seen = await stream.until('group', (e) => e.data.groupId === groupId);
      expect(members(seen)).toBe(2);
    } finally {
      stream.source.close();
    }
    const named = await fetch(`${server.url}/groups/events`);
    expect(named.status).toBe(404);
    expect(await named.json()).toMatchObject({ type: '/problems/group-not-found', groupId: 'events' });
  }, 30_000);
});

describe('a runtime that buffers its answers (the Lambda handler)', () => {
  it('answers the event routes 501 event-streams-unsupported', async () => {
    const config = loadConfig({ KAFKA_BROKERS: inject('kafkaBrokers'), ...env });
    const service = createService(config);
    try {
      const app = createApp({
        service: service.groups,
        clusters: clustersOf(service),
        security: securityFrom(config),
        events: { limits: config.events, streaming: false },
      });
      for (const path of [`/groups/${encodeURIComponent(groupId)}/events`, '/groups.events']) {
        const res = await app.request(path);
        expect(res.status, path).toBe(501);
        expect(await res.json()).toMatchObject({ type: '/problems/event-streams-unsupported' });
      }
    } finally {
      await service.close();
    }
  });
});
