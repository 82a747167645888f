/**
 * The NDJSON listing written from the brokers' answers themselves: each line's group id is copied
 * from the answer's UTF-8 bytes (JSON needs no escape for most ids), the rest of the line is one of
 * the few byte strings its (type, protocol type, state) makes. The lines are the same bytes as
 * JSON.stringify of each group's listing (paging.ts's ndjsonListing): no string or object per group.
 */

import {
  ABSENT,
  ID_ESCAPED,
  ID_STRIDE,
  type ListedGroupsTable,
} from '../broker/protocol/list-groups-table.js';
import { groupIdAt, type ListedRows, rowsAfter, wordMeanings } from '../groups/listed-rows.js';
import type { BrokerFailure } from '../groups/model.js';
import { NDJSON } from './paging.js';

/** Bytes per chunk written: a few hundred lines each, so the per-chunk cost vanishes. */
const CHUNK_BYTES = 128 * 1024;
/**
 * Room past CHUNK_BYTES for the line that crosses it: without it nearly every chunk's last line
 * would grow the buffer (a new one of twice the size, and a copy). Longer lines still grow it.
 */
const CHUNK_SLACK = 4 * 1024;
const utf8 = new TextEncoder();
const HEAD = utf8.encode('{"groupId":"');

/**
 * The bytes after a group's id: `","type":…,"protocolType":…,"state":…}` and the newline (the id's
 * closing quote first), per kind (type, protocol type, state) of the table: made once each.
 */
function tailsOf(table: ListedGroupsTable): Uint8Array[] {
  const { type, state } = wordMeanings(table);
  return table.kinds.map((kind) => {
    const groupType = kind.type === ABSENT ? null : (type[kind.type] ?? null);
    const groupState = kind.state === ABSENT ? null : (state[kind.state] as string);
    return utf8.encode(
      `","type":${JSON.stringify(groupType)},"protocolType":${JSON.stringify(table.words[kind.protocolType])},"state":${JSON.stringify(groupState)}}\n`,
    );
  });
}

/** One chunk of the answer as it fills. */
class Chunk {
  buf: Uint8Array = new Uint8Array(CHUNK_BYTES + CHUNK_SLACK);
  at = 0;

  /** Room for `n` more bytes. */
  reserve(n: number): Uint8Array {
    if (this.at + n > this.buf.length) {
      const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
      bigger.set(this.buf.subarray(0, this.at));
      this.buf = bigger;
    }
    return this.buf;
  }

  put(bytes: Uint8Array): void {
    this.reserve(bytes.length).set(bytes, this.at);
    this.at += bytes.length;
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, this.at);
  }
}

/** Rows whose answer bytes are read ahead of their lines at once (see touch). */
const TOUCHED_ROWS = 256;
/** Where touch leaves what it read, so that the reads are made. */
const readAhead = { sink: 0 };

/**
 * Reads the places in the answer the next TOUCHED_ROWS lines copy from, in a loop that does
 * nothing else: in sorted order they are all over the answer, and the processor fetches many of
 * them at once here, where the copying loop waits for each in turn. Returns the row after them.
 */
function touch(table: ListedGroupsTable, rows: Uint32Array, from: number): number {
  const { bytes, ids } = table;
  const to = Math.min(rows.length, from + TOUCHED_ROWS);
  let sink = 0;
  for (let k = from; k < to; k++) sink ^= bytes[ids[(rows[k] as number) * ID_STRIDE] as number] as number;
  readAhead.sink ^= sink;
  return to;
}

/**
 * Writes the lines of rows[from..] into `out` until it holds CHUNK_BYTES; the next row to write.
 * Each group is its id's bytes, then one of `joints` (its line's end and the next line's start,
 * one copy rather than two) or, for the last row, one of `tails`: the first line's HEAD is the
 * caller's.
 */
function fillLines(
  out: Chunk,
  table: ListedGroupsTable,
  rows: Uint32Array,
  from: number,
  ends: { tails: readonly Uint8Array[]; joints: readonly Uint8Array[] },
): number {
  const { bytes, ids } = table;
  const { tails, joints } = ends;
  const last = rows.length - 1;
  // Locals in the loop (not the chunk's fields): it runs once per byte of the answer.
  let buf = out.buf;
  let at = out.at;
  let next = from;
  let touched = next;
  for (; next < rows.length && at < CHUNK_BYTES; next++) {
    if (next === touched) touched = touch(table, rows, next);
    const row = rows[next] as number;
    const start = ids[row * ID_STRIDE] as number;
    const length = ids[row * ID_STRIDE + 1] as number;
    const kind = ids[row * ID_STRIDE + 3] as number;
    const end = (next === last ? tails[kind] : joints[kind]) as Uint8Array;
    if (((ids[row * ID_STRIDE + 2] as number) & ID_ESCAPED) !== 0) {
      // JSON.stringify's own escapes, between the quotes HEAD and the end already hold.
      out.at = at;
      out.put(utf8.encode(JSON.stringify(groupIdAt(table, row)).slice(1, -1)));
      out.put(end);
      buf = out.buf;
      at = out.at;
      continue;
    }
    if (at + length + end.length > buf.length) {
      out.at = at;
      buf = out.reserve(length + end.length);
    }
    // A short id byte by byte (a subarray per line would cost more than its copy), a long one by set().
    if (length <= 32) for (let i = start; i < start + length; i++) buf[at++] = bytes[i] as number;
    else {
      buf.set(bytes.subarray(start, start + length), at);
      at += length;
    }
    // set() copies as memcpy does: faster than a loop over the line's fixed parts.
    buf.set(end, at);
    at += end.length;
  }
  out.at = at;
  return next;
}

/**
 * A sorted listing as application/x-ndjson: a `{"failure": …}` line per failed broker, one group per
 * line after `after`, then `{"end": …}`. Chunks are made as the client reads (pull), so the answer
 * never exists whole in memory: the brokers' answers do, once.
 */
export function ndjsonRows(
  listed: ListedRows | undefined,
  failures: readonly BrokerFailure[],
  after: string | undefined,
): Response {
  const rows = listed?.rows ?? new Uint32Array(0);
  const table = listed?.table;
  const first = listed ? rowsAfter(listed, after) : 0;
  let next = first;
  const tails = table ? tailsOf(table) : undefined;
  const ends = tails && {
    tails,
    joints: tails.map((tail) => {
      const joint = new Uint8Array(tail.length + HEAD.length);
      joint.set(tail);
      joint.set(HEAD, tail.length);
      return joint;
    }),
  };
  let head: string | undefined = failures.map((failure) => `${JSON.stringify({ failure })}\n`).join('');
  let done = false;
  /** Whether the first line's HEAD is written: a pull whose failures fill its chunk writes no group. */
  let opened = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (done) return;
        const out = new Chunk();
        if (head) {
          out.put(utf8.encode(head));
          head = undefined;
        }
        if (!opened && next < rows.length) {
          out.put(HEAD);
          opened = true;
        }
        if (table && ends) next = fillLines(out, table, rows, next, ends);
        if (next >= rows.length) {
          out.put(
            utf8.encode(
              `${JSON.stringify({ end: { groups: rows.length - first, failures: failures.length } })}\n`,
            ),
          );
          done = true;
        }
        controller.enqueue(out.bytes());
        if (done) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
  return new Response(body, { status: 200, headers: { 'content-type': NDJSON } });
}
