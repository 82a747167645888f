/**
 * An application/x-ndjson answer made of batches that come in while it is written: each batch's
 * lines go out as soon as they are made, and the next batch is asked for only when the client has
 * read the last one (pull), so the server holds a batch or two, never the whole answer. The reads
 * run under the stream's own deadline, which a client that leaves aborts: nothing goes on reading
 * the estate for nobody.
 */

import type { Deadline } from '../broker/deadline.js';
import { NDJSON } from './paging.js';

export interface NdjsonBatches {
  /** Lines written first (broker failures). */
  head: readonly string[];
  /** Each batch's lines, each line ending in '\n'. */
  batches: AsyncIterable<string>;
  /** The last line, once every batch is out. */
  end: () => unknown;
  /** The deadline the batches are read under: aborted when the client leaves. */
  deadline?: Deadline;
}

export function ndjsonBatches(
  { head, batches, end, deadline }: NdjsonBatches,
  headers: Record<string, string> = {},
): Response {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
  let first = head.join('');
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // A pull that enqueues nothing is not called again: batches without lines (a topic's
        // batch in which no group reads it) are skipped until one has some, or the end.
        for (;;) {
          const next = await iterator.next();
          let text = first;
          first = '';
          if (!next.done) text += next.value;
          else text += `${JSON.stringify(end())}\n`;
          if (text.length > 0) controller.enqueue(encoder.encode(text));
          if (next.done) controller.close();
          if (next.done || text.length > 0) return;
        }
      },
      async cancel() {
        // The client left: the broker calls in flight are abandoned, and no batch after them is read.
        deadline?.abort();
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 200, headers: { 'content-type': NDJSON, ...headers } });
}
