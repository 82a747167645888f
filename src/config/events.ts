/**
 * EVENTS_*: the bounds of the server-sent event streams (GET /groups/{groupId}/events and
 * GET /groups.events). Every one has a default, so a deployment that never streams sets nothing.
 */

import { ConfigError, type Env, integer } from './read.js';

export interface EventLimits {
  /** The interval between two polls when the caller asks for none, in ms. */
  pollIntervalMs: number;
  /** The shortest interval a caller may ask for (`intervalMs`), in ms: the floor. */
  minPollIntervalMs: number;
  /** How often a lag event is sent per group, in ms; 0: never. */
  lagIntervalMs: number;
  /** A comment line after this long without a write, in ms, so proxies keep the connection. */
  heartbeatMs: number;
  /** The server ends a stream this long after it opened (with `retry:`), in ms. */
  maxLifetimeMs: number;
  /** Open streams per principal (per client address when open), in this process. */
  maxStreamsPerPrincipal: number;
  /** Groups one listing stream watches at most (the first by id). */
  maxGroups: number;
}

export function events(env: Env): EventLimits {
  const minPollIntervalMs = integer(env, 'EVENTS_MIN_POLL_INTERVAL_MS', 1000, 100, 3_600_000);
  const pollIntervalMs = integer(env, 'EVENTS_POLL_INTERVAL_MS', 5000, 100, 3_600_000);
  if (pollIntervalMs < minPollIntervalMs) {
    throw new ConfigError(
      'EVENTS_POLL_INTERVAL_MS',
      `expected at least EVENTS_MIN_POLL_INTERVAL_MS (${minPollIntervalMs}), received '${pollIntervalMs}'`,
    );
  }
  return {
    pollIntervalMs,
    minPollIntervalMs,
    lagIntervalMs: integer(env, 'EVENTS_LAG_INTERVAL_MS', 30_000, 0, 86_400_000),
    heartbeatMs: integer(env, 'EVENTS_HEARTBEAT_MS', 15_000, 100, 300_000),
    maxLifetimeMs: integer(env, 'EVENTS_MAX_LIFETIME_MS', 900_000, 1000, 86_400_000),
    maxStreamsPerPrincipal: integer(env, 'EVENTS_MAX_STREAMS_PER_PRINCIPAL', 10, 1, 100_000),
    maxGroups: integer(env, 'EVENTS_MAX_GROUPS', 100, 1, 10_000),
  };
}

/** The defaults, for apps built without a configuration (tests, embedders). */
export const DEFAULT_EVENT_LIMITS: EventLimits = events({});
