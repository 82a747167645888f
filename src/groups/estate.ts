/**
 * Reading the whole estate (every listed group's description and lag) in bounded batches: a
 * batch's answers are handed on as soon as they are in, and at most `inFlight` batches are held,
 * so memory follows the batch size, not the number of groups. Under a deadline, every batch is read
 * under what is left of it, and the batches whose turn comes after it are handed on unread.
 */

import { type CallOptions, type Deadline, DeadlineExceededError } from '../broker/deadline.js';
import type { Group } from './model.js';

/** Groups read per batch: one describe, one offsets RPC per coordinator, one ListOffsets per leader. */
export const ESTATE_BATCH_GROUPS = 1_000;
/** Batches out at once: the next batch is on the wire while the last one is written out. */
export const ESTATE_BATCHES_IN_FLIGHT = 2;

/** A batch not read: the deadline of the answer passed (or the client left) before its turn. */
export class UnreadError extends DeadlineExceededError {
  constructor(deadline: Deadline) {
    super(`not read: the ${deadline.totalMs} ms deadline of this answer passed before its turn`);
  }
}

export interface PipelineOptions {
  size?: number;
  inFlight?: number;
  /**
   * Bounds the reads: each batch is read under it (every broker call of the batch takes its budget
   * from what is left), and a batch whose turn comes when its calls would get no more than the
   * deadline's reserve (or after it was aborted) is not read: its answer is an UnreadError.
   */
  deadline?: Deadline;
}

/**
 * `read` over `items` cut into batches of `size`, at most `inFlight` batches at once, answers
 * yielded in the order of the batches as each completes.
 */
export async function* pipelined<T, R>(
  items: readonly T[],
  read: (batch: readonly T[], options: CallOptions) => Promise<R>,
  { size = ESTATE_BATCH_GROUPS, inFlight = ESTATE_BATCHES_IN_FLIGHT, deadline }: PipelineOptions = {},
): AsyncGenerator<{ batch: readonly T[]; answer: R | UnreadError }> {
  const queue: { batch: readonly T[]; answer: Promise<R | UnreadError> }[] = [];
  let next = 0;
  const readOne = (batch: readonly T[]): Promise<R | UnreadError> => {
    if (!deadline) return read(batch, { deadline });
    // Its calls would get no more than the reserve: not worth a turn, and the answer needs that time.
    if (deadline.budgetMs(Number.POSITIVE_INFINITY) <= deadline.reserveMs())
      return Promise.resolve(new UnreadError(deadline));
    return read(batch, { deadline });
  };
  const start = () => {
    while (queue.length < inFlight && next < items.length) {
      const batch = items.slice(next, next + size);
      next += batch.length;
      const answer = readOne(batch);
      // Rejections are taken up when this batch's turn comes; until then they are not unhandled.
      answer.catch(() => undefined);
      queue.push({ batch, answer });
    }
  };
  start();
  while (queue.length > 0) {
    const head = queue.shift() as { batch: readonly T[]; answer: Promise<R | UnreadError> };
    const answer = await head.answer;
    start();
    yield { batch: head.batch, answer };
  }
}

/**
 * Whether a group reads `topic` by what its description says: a member holds (or is to hold) one
 * of its partitions, subscribes to it by name, or a streams topology reads it as a source.
 * Committed offsets on the topic are the other way in; the caller checks those.
 */
export function readsTopic(group: Group, topic: string): boolean {
  for (const m of group.members) {
    if (m.partitions.some((tp) => tp.topic === topic)) return true;
    if ('subscribedTopicNames' in m && m.subscribedTopicNames.includes(topic)) return true;
    if ('targetPartitions' in m && m.targetPartitions.some((tp) => tp.topic === topic)) return true;
    if ('consumerProtocol' in m && m.consumerProtocol?.subscription?.topics.includes(topic)) return true;
  }
  if (group.type === 'streams') {
    return (group.topology?.subtopologies ?? []).some(
      (s) => s.sourceTopics.includes(topic) || s.repartitionSourceTopics.some((r) => r.name === topic),
    );
  }
  return false;
}
