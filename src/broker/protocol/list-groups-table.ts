/*
  ListGroups (API key 16) answers read as columns rather than as one object per group; the grammar
  is list-groups.ts's. A broker lists every group it coordinates, 100,000 and more: the listing
  filters, sorts and writes them out (NDJSON) from the ids' own UTF-8 bytes and a few small typed
  arrays, and makes a group's strings only for the groups that need them.

  Requests, and answers to write (a stand-in broker's), are list-groups.ts's own.
*/

import type { ApiMessage } from './api.js';
import { decodeError, ProtocolDecodeError } from './decode-error.js';
import {
  type ListedGroup,
  ListGroups,
  type ListGroupsRequest,
  type ListGroupsResponse,
} from './messages/list-groups.js';
import { MAX_STRING_BYTES, Reader } from './reader.js';

/** In `protocolType`, `state` and `type`: the field is not in this version. */
export const ABSENT = 0xffffffff;
/** A group's four numbers in `ids`: where its id starts in `bytes`, its length, ID_* flags, its kind. */
export const ID_STRIDE = 4;
/** In a group's flags: the id has bytes above 0x7f (UTF-8 beyond ASCII; checked well-formed). */
export const ID_NON_ASCII = 1;
/** In a group's flags: the id has a byte JSON must escape (a quote, a backslash, a control character). */
export const ID_ESCAPED = 2;

/** One broker's ListGroups answer, group `i` in row `i` of every column. */
export interface ListedGroupsTable {
  readonly errorCode: number;
  readonly throttleTimeMs: number | undefined;
  readonly count: number;
  /** A copy of the answer, which holds the ids' UTF-8. */
  readonly bytes: Uint8Array;
  /**
   * Per group (at i * ID_STRIDE): its id's start in `bytes`, its length, its flags, its kind. Side by
   * side, since a sorted listing reads them in the ids' order, from all over the answer.
   */
  readonly ids: Int32Array;
  /** The distinct (protocol type, state, type) of the answer, as indices into `words`. */
  readonly kinds: readonly { protocolType: number; state: number; type: number }[];
  /** Each group's protocol type, state and type as an index into `words` (ABSENT: not in this version). */
  readonly protocolType: Uint32Array;
  readonly state: Uint32Array;
  readonly type: Uint32Array;
  /** The distinct protocol types, states and types of the answer, as the broker spelled them. */
  readonly words: readonly string[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** Words compared byte by byte before a lookup by text (an answer has a handful: types, states). */
const SCANNED_WORDS = 16;

function decodeTable(version: number, body: Uint8Array): ListedGroupsTable {
  if (!Number.isInteger(version) || version < ListGroups.minVersion || version > ListGroups.maxVersion) {
    // The row decoder's own check and error.
    return ListGroups.decodeResponse(version, body) as never;
  }
  const bytes = body.slice();
  const reader = new Reader(bytes);
  const flexible = version >= ListGroups.flexibleFrom;
  try {
    const throttleTimeMs = version >= 1 ? reader.readInt32() : undefined;
    const errorCode = reader.readInt16();
    const countAt = reader.offset;
    const count = flexible ? reader.readUnsignedVarint() - 1 : reader.readInt32();
    if (count < 0)
      reader.fail(
        flexible ? 'null in a non-nullable compact array' : `negative array length ${count}`,
        countAt,
      );
    // Each group takes at least its two strings' lengths (and its tag section).
    if (count * (flexible ? 3 : 4) > reader.remaining)
      reader.fail(`array 'groups' count ${count} cannot fit in the ${reader.remaining} bytes left`, countAt);
    const columns = readGroups(bytes, reader.offset, count, version, flexible);
    const tail = new Reader(bytes, columns.end);
    if (flexible) tail.readTaggedFields();
    tail.expectEnd();
    const { end: _, ...table } = columns;
    return { errorCode, throttleTimeMs, count, bytes, ...table };
  } catch (error) {
    throw decodeError(error, reader.offset, {
      apiKey: ListGroups.apiKey,
      apiVersion: version,
      message: `${ListGroups.name} response`,
    });
  }
}

/**
 * The groups' columns, read with the offset in a local and the checks of Reader (same messages and
 * offsets): the loop runs once per group of the cluster, so no call per field where it can be avoided.
 */
function readGroups(bytes: Uint8Array, start: number, count: number, version: number, flexible: boolean) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length;
  let at = start;
  const fail = (reason: string, offset: number): never => {
    throw new ProtocolDecodeError(reason, offset);
  };
  const varint = (): number => {
    const from = at;
    let value = 0;
    for (let i = 0; i < 5; i++) {
      if (at >= end) fail('truncated: varint runs past the end', from);
      const b = bytes[at++] as number;
      if (i === 4 && b > 0x0f) fail('varint does not fit in 32 bits', from);
      value += (b & 0x7f) * 2 ** (7 * i);
      if ((b & 0x80) === 0) return value;
    }
    return fail('varint longer than 5 bytes', from);
  };
  /** Moves past a non-nullable string; its length (it ends at `at`). `field` names it in an error. */
  const string = (field: string): number => {
    const from = at;
    let length: number;
    if (flexible) {
      const b = bytes[at] as number;
      if (at < end && b < 0x80) {
        at++;
        length = b - 1;
      } else length = varint() - 1;
    } else {
      if (end - at < 2) fail(`truncated: int16 needs 2 bytes, ${end - at} left`, at);
      length = view.getInt16(at);
      at += 2;
    }
    if (length < 0)
      fail(
        length === -1
          ? `null in a non-nullable${flexible ? ' compact' : ''} string '${field}'`
          : `negative string '${field}' length ${length}`,
        from,
      );
    if (length > MAX_STRING_BYTES)
      fail(`string '${field}' length ${length} is over ${MAX_STRING_BYTES}`, from);
    if (length > end - at) fail(`truncated: string '${field}' needs ${length} bytes, ${end - at} left`, at);
    at += length;
    return length;
  };

  const ids = new Int32Array(count * ID_STRIDE);
  const kinds: { protocolType: number; state: number; type: number }[] = [];
  const kindIndex = new Map<number | string, number>();
  /** The kind of a group with these words (numbers for a handful of words, text beyond). */
  const kindOf = (protocolType: number, state: number, type: number): number => {
    const s = state === ABSENT ? 0 : state + 1;
    const t = type === ABSENT ? 0 : type + 1;
    const key = words.length < 1024 ? (protocolType * 1024 + s) * 1024 + t : `${protocolType},${s},${t}`;
    let kind = kindIndex.get(key);
    if (kind === undefined) {
      kind = kinds.push({ protocolType, state, type }) - 1;
      kindIndex.set(key, kind);
    }
    return kind;
  };
  const protocolType = new Uint32Array(count);
  const state = new Uint32Array(count).fill(ABSENT);
  const type = new Uint32Array(count).fill(ABSENT);
  const words: string[] = [];
  const wordBytes: Uint8Array[] = [];
  const wordIndex = new Map<string, number>();
  const same = (w: number, from: number, length: number): boolean => {
    const known = wordBytes[w] as Uint8Array;
    if (known.length !== length) return false;
    for (let i = 0; i < length; i++) if (known[i] !== bytes[from + i]) return false;
    return true;
  };
  /** Reads the string `field` and gives its word's index, `hint` (the field's last word) tried first. */
  const word = (field: string, hint: number): number => {
    const length = string(field);
    const from = at - length;
    if (hint !== ABSENT && same(hint, from, length)) return hint;
    for (let w = 0; w < words.length && w < SCANNED_WORDS; w++) if (same(w, from, length)) return w;
    const text = text8(bytes, from, length, field);
    let w = wordIndex.get(text);
    if (w === undefined) {
      w = words.length;
      words.push(text);
      wordBytes.push(bytes.slice(from, from + length));
      wordIndex.set(text, w);
    }
    return w;
  };

  let lastProtocolType = ABSENT;
  let lastState = ABSENT;
  let lastType = ABSENT;
  for (let i = 0; i < count; i++) {
    const length = string('groupId');
    const from = at - length;
    let flags = 0;
    for (let j = from; j < at; j++) {
      const b = bytes[j] as number;
      if (b >= 0x80) flags |= ID_NON_ASCII;
      else if (b < 0x20 || b === 0x22 || b === 0x5c) flags |= ID_ESCAPED;
    }
    // A broken sequence is an error, as in every string this codec reads.
    if (flags & ID_NON_ASCII) text8(bytes, from, length, 'groupId');
    ids[i * ID_STRIDE] = from;
    ids[i * ID_STRIDE + 1] = length;
    ids[i * ID_STRIDE + 2] = flags;
    lastProtocolType = word('protocolType', lastProtocolType);
    protocolType[i] = lastProtocolType;
    if (version >= 4) {
      lastState = word('groupState', lastState);
      state[i] = lastState;
    }
    if (version >= 5) {
      lastType = word('groupType', lastType);
      type[i] = lastType;
    }
    ids[i * ID_STRIDE + 3] = kindOf(lastProtocolType, state[i] as number, type[i] as number);
    if (flexible) {
      // Almost always an empty tag section; unknown tags are read (checked) and left out.
      if (at < end && bytes[at] === 0) at++;
      else {
        const tags = new Reader(bytes, at);
        tags.readTaggedFields();
        at = tags.offset;
      }
    }
  }
  return { end: at, ids, kinds, protocolType, state, type, words };
}

function text8(bytes: Uint8Array, start: number, length: number, field: string): string {
  try {
    return utf8.decode(bytes.subarray(start, start + length));
  } catch {
    throw new ProtocolDecodeError(`string '${field}' is not valid UTF-8`, start);
  }
}

/** Group `i`'s id as text. */
export function tableGroupId(table: ListedGroupsTable, i: number): string {
  const start = table.ids[i * ID_STRIDE] as number;
  return utf8.decode(table.bytes.subarray(start, start + (table.ids[i * ID_STRIDE + 1] as number)));
}

/** The answer as ListGroups' own objects (unknown tagged fields are not kept). */
export function tableResponse(table: ListedGroupsTable): ListGroupsResponse {
  const word = (w: number) => (w === ABSENT ? undefined : (table.words[w] as string));
  const groups = Array.from({ length: table.count }, (_, i): ListedGroup => {
    const groupState = word(table.state[i] as number);
    const groupType = word(table.type[i] as number);
    return {
      groupId: tableGroupId(table, i),
      protocolType: word(table.protocolType[i] as number) as string,
      ...(groupState !== undefined && { groupState }),
      ...(groupType !== undefined && { groupType }),
    };
  });
  return {
    ...(table.throttleTimeMs !== undefined && { throttleTimeMs: table.throttleTimeMs }),
    errorCode: table.errorCode,
    groups,
  };
}

/** ListGroups, its answers decoded to a ListedGroupsTable. */
export const ListGroupsTable: ApiMessage<ListGroupsRequest, ListedGroupsTable> = Object.freeze({
  apiKey: ListGroups.apiKey,
  name: ListGroups.name,
  minVersion: ListGroups.minVersion,
  maxVersion: ListGroups.maxVersion,
  flexibleFrom: ListGroups.flexibleFrom,
  encodeRequest: ListGroups.encodeRequest,
  decodeRequest: ListGroups.decodeRequest,
  encodeResponse: (version: number, table: ListedGroupsTable) =>
    ListGroups.encodeResponse(version, tableResponse(table)),
  decodeResponse: decodeTable,
});
