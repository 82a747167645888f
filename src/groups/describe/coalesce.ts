/**
 * Coalesced describes: concurrent describes of different groups on the same coordinator and of the
 * same type go out as one RPC. Dashboards poll many groups with many callers; Kafka's describe RPCs
 * all take a list of groups, and one RPC for 64 groups costs the broker and this process about what
 * one for a single group does.
 *
 * Per coordinator and type, at most `maxInFlight` RPCs are out at once. A describe that finds
 * nothing in flight and nothing waiting goes out at once, in its caller's turn: a lone caller pays
 * no extra turn and no window. One that finds an RPC out but a free slot goes out at the end of the
 * current event-loop turn, with whatever else arrived in that turn; one that finds no free slot
 * waits for the next one, but never longer than `windowMs`: then it goes out anyway. Every caller
 * gets the outcomes of its own groups only. A batch goes out under the latest of its callers'
 * deadlines, and each caller whose deadline comes sooner stops waiting at its own: a caller on its
 * third retry, or a stream's batch, does not cut the RPC short for a caller that just came.
 */

import { bounded, type CallOptions, type Deadline } from '../../broker/deadline.js';
import type { BrokerConnection } from '../../broker/transport/connection.js';
import type { BrokerRef } from '../model.js';
import type { GroupDescriber, TypedOutcome } from './describer.js';

export interface CoalesceOptions {
  /** Longest a describe waits for a batch to leave (ms). Default 5. */
  windowMs?: number;
  /** RPCs out at once per coordinator and type before describes start to wait. Default 2. */
  maxInFlight?: number;
  /** Most groups in one RPC. Default 1,000. */
  maxGroups?: number;
}

interface Waiter {
  groupIds: readonly string[];
  options: CallOptions;
  resolve: (outcomes: Map<string, TypedOutcome>) => void;
  reject: (error: unknown) => void;
}

interface Lane {
  connection: BrokerConnection;
  coordinator: BrokerRef;
  waiting: Waiter[];
  inFlight: number;
  /** A flush is scheduled for the end of this turn. */
  scheduled: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const defer: (run: () => void) => void =
  typeof setImmediate === 'function' ? (run) => setImmediate(run) : (run) => setTimeout(run, 0);

/** `describer`, with concurrent calls for one coordinator merged into one RPC. */
export function coalesced(describer: GroupDescriber, options: CoalesceOptions = {}): GroupDescriber {
  const windowMs = options.windowMs ?? 5;
  const maxInFlight = options.maxInFlight ?? 2;
  const maxGroups = options.maxGroups ?? 1_000;
  const lanes = new Map<string, Lane>();

  const send = (key: string, lane: Lane) => {
    if (lane.timer !== undefined) {
      clearTimeout(lane.timer);
      lane.timer = undefined;
    }
    const batch: Waiter[] = [];
    const ids = new Set<string>();
    while (lane.waiting.length > 0) {
      const next = lane.waiting[0] as Waiter;
      // A caller's groups travel together; a batch holds at least one caller, however many it asks.
      if (batch.length > 0 && ids.size + next.groupIds.length > maxGroups) break;
      lane.waiting.shift();
      batch.push(next);
      for (const id of next.groupIds) ids.add(id);
    }
    if (batch.length === 0) return;
    lane.inFlight += 1;
    // The slot is free before the callers hear back: a caller that asks again at once finds
    // nothing in flight.
    const done = () => {
      lane.inFlight -= 1;
      afterChange(key, lane);
    };
    const options = latestOf(batch);
    const shared = describer.describe(lane.connection, lane.coordinator, [...ids], options);
    shared.then(done, done);
    for (const waiter of batch) {
      const mine = waiter.options.deadline;
      const heard =
        mine && mine !== options.deadline
          ? bounded(lane.connection.label, describer.api, waiter.options, shared)
          : shared;
      heard.then(
        (outcomes) => {
          const own = new Map<string, TypedOutcome>();
          for (const id of waiter.groupIds) {
            const outcome = outcomes.get(id);
            if (outcome) own.set(id, outcome);
          }
          waiter.resolve(own);
        },
        (error: unknown) => waiter.reject(error),
      );
    }
  };

  const afterChange = (key: string, lane: Lane) => {
    if (lane.waiting.length === 0) {
      if (lane.inFlight === 0 && !lane.scheduled) lanes.delete(key);
      return;
    }
    if (lane.inFlight < maxInFlight) {
      if (!lane.scheduled) {
        lane.scheduled = true;
        defer(() => {
          lane.scheduled = false;
          if (lane.inFlight < maxInFlight) send(key, lane);
          afterChange(key, lane);
        });
      }
    } else if (lane.timer === undefined) {
      // Every slot is taken: the batch leaves when one frees up, or when the window closes.
      lane.timer = setTimeout(() => {
        lane.timer = undefined;
        send(key, lane);
      }, windowMs);
    }
  };

  return {
    type: describer.type,
    api: describer.api,
    describe(connection, coordinator, groupIds, options) {
      if (groupIds.length === 0) return Promise.resolve(new Map());
      const key = `${coordinator.nodeId}@${connection.label}`;
      let lane = lanes.get(key);
      if (!lane) {
        lane = { connection, coordinator, waiting: [], inFlight: 0, scheduled: false, timer: undefined };
        lanes.set(key, lane);
      }
      const current = lane;
      return new Promise<Map<string, TypedOutcome>>((resolve, reject) => {
        current.waiting.push({ groupIds, options, resolve, reject });
        if (current.inFlight === 0 && !current.scheduled && current.waiting.length === 1) send(key, current);
        else afterChange(key, current);
      });
    },
  };
}

/** The batch's bound: the latest of its callers' deadlines; none when a caller has none. */
function latestOf(batch: readonly Waiter[]): CallOptions {
  let latest: Deadline | undefined;
  for (const waiter of batch) {
    const deadline = waiter.options.deadline;
    if (!deadline) return { deadline: undefined };
    if (!latest || deadline.expiresAt > latest.expiresAt) latest = deadline;
  }
  return { deadline: latest };
}
