/**
 * One open event stream: it follows a shared poll and tells its caller what changed since what
 * the caller has seen. What it has seen travels with every event as the `id:` (a signed snapshot,
 * `SeenData`), so a client that reconnects with `Last-Event-ID` gets the changes since, and the
 * server keeps nothing per client between connections. Bounded: heartbeats when idle, an end
 * (with `retry:`) at the maximum lifetime, one slot of the caller's cap held while open.
 */

import type { SSEStreamingApi } from 'hono/streaming';
import type { Permissions } from '../auth/grants.js';
import type { EventLimits } from '../config/events.js';
import type { Observed, Reading } from '../groups/events/readings.js';
import { changesOf, entryOf, type SeenEntry } from '../groups/events/view.js';
import type { GroupChangeEvent, GroupLagEvent } from '../openapi/event-schemas.js';
import type { Problem } from '../openapi/problems.js';

/** How long a client waits before reconnecting after the server ended its stream, in ms. */
export const RECONNECT_AFTER_MS = 1000;

export interface StreamRun {
  /** Subscribes to the stream's (shared) poll; returns the unsubscribe. */
  subscribe(listener: (reading: Reading) => void): () => void;
  /** The poll's interval, in ms. */
  intervalMs: number;
  /** What the caller has seen: from `Last-Event-ID`, or nothing. */
  seen: Map<string, SeenEntry>;
  permissions: Permissions;
  limits: EventLimits;
  /** The snapshot token of `seen` (signing is the route's: purpose, watch and cluster). */
  sign(seen: readonly SeenEntry[]): Promise<string>;
  problemOf(error: unknown): Problem;
  /** Called once the stream is over, whichever way. */
  release(): void;
}

const iso = (ms: number) => new Date(ms).toISOString();

function changeEvent(o: Observed, verdict: string | null, changed: string[], at: number): GroupChangeEvent {
  const g = o.group;
  return {
    groupId: g.groupId,
    type: g.type,
    state: g.state,
    epoch: g.groupEpoch ?? null,
    assignmentEpoch: g.assignmentEpoch ?? null,
    members: g.members.map((m) => ({
      memberId: m.memberId,
      instanceId: m.instanceId,
      clientId: m.clientId,
      clientHost: m.clientHost,
      partitions: m.partitions,
    })),
    verdict: verdict as GroupChangeEvent['verdict'],
    changed: changed as GroupChangeEvent['changed'],
    at: iso(at),
  };
}

export async function runStream(stream: SSEStreamingApi, run: StreamRun): Promise<void> {
  const { limits, permissions } = run;
  const seen = run.seen;
  const opened = Date.now();
  const deadline = opened + limits.maxLifetimeMs;
  let lastWrite = opened;
  let token: string | undefined;
  let failing = false;
  let overflow = -1;
  const lagSent = new Map<string, number>();

  let pending: Reading | undefined;
  let wake: (() => void) | undefined;
  let closed = false;
  stream.onAbort(() => {
    closed = true;
    wake?.();
  });
  const unsubscribe = run.subscribe((reading) => {
    pending = reading;
    wake?.();
  });

  const currentToken = async () => {
    token ??= await run.sign([...seen.values()]);
    return token;
  };
  const send = async (event: string, data: unknown, withId: boolean) => {
    await stream.writeSSE({
      event,
      data: JSON.stringify(data),
      ...(withId && { id: await currentToken() }),
    });
    lastWrite = Date.now();
  };

  const emit = async (reading: Reading) => {
    if (!reading.ok) {
      // Once per streak of failures: the poll goes on, and the next success says what changed.
      if (!failing) await send('poll-failed', run.problemOf(reading.error), false);
      failing = true;
      return;
    }
    failing = false;
    const { at } = reading;
    const visible = new Map<string, Observed>();
    for (const [id, o] of reading.groups) {
      if (permissions.allows('read', id, o.group.type)) visible.set(id, o);
    }
    const watched = reading.groups.size + reading.unknown.size;
    if (reading.matching > watched && reading.matching !== overflow) {
      overflow = reading.matching;
      await send('overflow', { matching: reading.matching, watched, at: iso(at) }, false);
    }
    for (const [id, o] of visible) {
      const verdict = permissions.allows('offsets', id, o.group.type) ? o.verdict : null;
      const entry = entryOf(o.group, verdict);
      const changed = changesOf(seen.get(id), entry);
      if (changed.length === 0) continue;
      seen.set(id, entry);
      token = undefined;
      await send('group', changeEvent(o, verdict, changed, at), true);
    }
    if (!reading.partial) {
      for (const id of [...seen.keys()]) {
        if (visible.has(id) || reading.unknown.has(id)) continue;
        seen.delete(id);
        token = undefined;
        lagSent.delete(id);
        await send('removed', { groupId: id, at: iso(at) }, true);
      }
    }
    if (limits.lagIntervalMs === 0) return;
    for (const [id, o] of visible) {
      if (!o.lag || o.verdict === null || !permissions.allows('offsets', id, o.group.type)) continue;
      const last = lagSent.get(id);
      // A little early rather than a whole poll late: polls drift by the time a read takes.
      if (last !== undefined && at - last < limits.lagIntervalMs - run.intervalMs / 2) continue;
      lagSent.set(id, at);
      const lag: GroupLagEvent = {
        groupId: id,
        type: o.group.type,
        lag: o.lag.total,
        maxTimeLagMs: o.lag.maxTimeLagMs,
        partitions: o.lag.partitions,
        verdict: o.verdict as GroupLagEvent['verdict'],
        at: iso(at),
      };
      await send('lag', lag, true);
    }
  };

  try {
    while (!closed) {
      if (pending) {
        const reading = pending;
        pending = undefined;
        await emit(reading);
        continue;
      }
      const now = Date.now();
      if (now >= deadline) {
        await stream.writeSSE({
          event: 'end',
          data: JSON.stringify({ reason: 'lifetime', reconnectAfterMs: RECONNECT_AFTER_MS, at: iso(now) }),
          retry: RECONNECT_AFTER_MS,
        });
        break;
      }
      if (now - lastWrite >= limits.heartbeatMs) {
        await stream.write(': heartbeat\n\n');
        lastWrite = now;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(lastWrite + limits.heartbeatMs, deadline) - now);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  } catch {
    // The client went away mid-write: nothing to tell anyone.
  } finally {
    unsubscribe();
    run.release();
  }
}
