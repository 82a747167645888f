/**
 * Reads Kafka's primitive types from a byte array. The bytes come from a broker (or anything that
 * pretends to be one), so every length and count is checked against what is left before anything
 * is allocated: a count of two billion in a ten-byte frame fails at once instead of eating memory.
 * Offsets in errors are relative to the array the outermost Reader was given.
 */

import { ProtocolDecodeError } from './decode-error.js';
import { uuidToString } from './uuid.js';

/** A tagged field this codec does not know, kept as bytes so it can be written back unchanged. */
export interface TaggedField {
  tag: number;
  data: Uint8Array;
}

/** Reads a known tag from `reader` (which spans exactly that field) and returns true, or false to keep it. */
export type TaggedFieldHandler = (tag: number, reader: Reader) => boolean;

// Kafka's strings are UTF-8. fatal: a broken sequence is an error, not a silent U+FFFD that would
// turn two different group ids into one. ignoreBOM: a leading U+FEFF is part of the id.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// Kafka's generated code rejects longer strings in every version, compact ones included.
export const MAX_STRING_BYTES = 0x7fff;
// Kafka 4.4's own readers refuse an array of more elements, and a tagged section of more fields,
// before allocating (MessageUtil): a broken or hostile broker's count ends the frame here too.
export const MAX_ARRAY_ELEMENTS = 1_000_000;
export const MAX_TAGGED_FIELDS = 10_000;

const named = (kind: string, field: string | undefined) =>
  field === undefined ? kind : `${kind} '${field}'`;

export class Reader {
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  readonly #end: number;
  #offset: number;

  /** `start`/`end` make a window over `bytes` whose offsets stay those of `bytes`. */
  constructor(bytes: Uint8Array, start = 0, end = bytes.length) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#offset = start;
    this.#end = end;
  }

  get offset(): number {
    return this.#offset;
  }

  get remaining(): number {
    return this.#end - this.#offset;
  }

  fail(reason: string, offset = this.#offset): never {
    throw new ProtocolDecodeError(reason, offset);
  }

  #need(n: number, what: string): number {
    if (n > this.#end - this.#offset) {
      this.fail(`truncated: ${what} needs ${n} bytes, ${this.#end - this.#offset} left`);
    }
    const at = this.#offset;
    this.#offset += n;
    return at;
  }

  readInt8(): number {
    return this.#view.getInt8(this.#need(1, 'int8'));
  }

  readInt16(): number {
    return this.#view.getInt16(this.#need(2, 'int16'));
  }

  readUint16(): number {
    return this.#view.getUint16(this.#need(2, 'uint16'));
  }

  readInt32(): number {
    return this.#view.getInt32(this.#need(4, 'int32'));
  }

  readUint32(): number {
    return this.#view.getUint32(this.#need(4, 'uint32'));
  }

  readInt64(): bigint {
    return this.#view.getBigInt64(this.#need(8, 'int64'));
  }

  readFloat64(): number {
    return this.#view.getFloat64(this.#need(8, 'float64'));
  }

  /** Kafka reads any non-zero byte as true; so does this. */
  readBoolean(): boolean {
    return this.#view.getUint8(this.#need(1, 'boolean')) !== 0;
  }

  readUuid(): string {
    const at = this.#need(16, 'uuid');
    return uuidToString(this.#bytes.subarray(at, at + 16));
  }

  /** Unsigned LEB128 of at most 5 bytes, holding at most 32 bits (Kafka's readUnsignedVarint). */
  readUnsignedVarint(): number {
    const start = this.#offset;
    let value = 0;
    for (let i = 0; i < 5; i++) {
      if (this.#offset >= this.#end) this.fail('truncated: varint runs past the end', start);
      const b = this.#bytes[this.#offset++] as number;
      if (i === 4 && b > 0x0f) this.fail('varint does not fit in 32 bits', start);
      value += (b & 0x7f) * 2 ** (7 * i);
      if ((b & 0x80) === 0) return value;
    }
    return this.fail('varint longer than 5 bytes', start);
  }

  /** Zigzag-encoded signed 32-bit varint. */
  readVarint(): number {
    const n = this.readUnsignedVarint();
    return (n >>> 1) ^ -(n & 1);
  }

  /** Zigzag-encoded signed 64-bit varint of at most 10 bytes. */
  readVarlong(): bigint {
    const start = this.#offset;
    let value = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.#offset >= this.#end) this.fail('truncated: varlong runs past the end', start);
      const b = this.#bytes[this.#offset++] as number;
      if (i === 9 && b > 0x01) this.fail('varlong does not fit in 64 bits', start);
      value |= BigInt(b & 0x7f) << BigInt(7 * i);
      if ((b & 0x80) === 0) return (value >> 1n) ^ -(value & 1n);
    }
    return this.fail('varlong longer than 10 bytes', start);
  }

  #utf8(length: number, start: number, what: string): string {
    if (length > MAX_STRING_BYTES) this.fail(`${what} length ${length} is over ${MAX_STRING_BYTES}`, start);
    const at = this.#need(length, what);
    try {
      return utf8.decode(this.#bytes.subarray(at, at + length));
    } catch {
      return this.fail(`${what} is not valid UTF-8`, at);
    }
  }

  /** `field`: the string's name in the message, which a decode error names. */
  readNullableString(field?: string): string | null {
    const start = this.#offset;
    const length = this.readInt16();
    if (length === -1) return null;
    if (length < 0) this.fail(`negative ${named('string', field)} length ${length}`, start);
    return this.#utf8(length, start, named('string', field));
  }

  readString(field?: string): string {
    const start = this.#offset;
    const value = this.readNullableString(field);
    if (value === null) this.fail(`null in a non-nullable ${named('string', field)}`, start);
    return value;
  }

  readCompactNullableString(field?: string): string | null {
    const start = this.#offset;
    const n = this.readUnsignedVarint();
    if (n === 0) return null;
    return this.#utf8(n - 1, start, named('string', field));
  }

  readCompactString(field?: string): string {
    const start = this.#offset;
    const value = this.readCompactNullableString(field);
    if (value === null) this.fail(`null in a non-nullable compact ${named('string', field)}`, start);
    return value;
  }

  /** A copy, so decoded messages do not pin (or alias) the network buffer. */
  #copy(length: number, what: string): Uint8Array {
    const at = this.#need(length, what);
    return this.#bytes.slice(at, at + length);
  }

  readNullableBytes(field?: string): Uint8Array | null {
    const start = this.#offset;
    const length = this.readInt32();
    if (length === -1) return null;
    if (length < 0) this.fail(`negative ${named('bytes', field)} length ${length}`, start);
    return this.#copy(length, named('bytes', field));
  }

  readBytes(field?: string): Uint8Array {
    const start = this.#offset;
    const value = this.readNullableBytes(field);
    if (value === null) this.fail(`null in non-nullable ${named('bytes', field)}`, start);
    return value;
  }

  readCompactNullableBytes(field?: string): Uint8Array | null {
    const n = this.readUnsignedVarint();
    if (n === 0) return null;
    return this.#copy(n - 1, named('bytes', field));
  }

  readCompactBytes(field?: string): Uint8Array {
    const start = this.#offset;
    const value = this.readCompactNullableBytes(field);
    if (value === null) this.fail(`null in non-nullable compact ${named('bytes', field)}`, start);
    return value;
  }

  /**
   * `minItemBytes`: the least an item can take on the wire, so the count can be checked up front.
   * `field`: the array's name in the message, for the error.
   */
  #items<T>(
    count: number,
    start: number,
    item: (reader: Reader) => T,
    minItemBytes: number,
    field: string | undefined,
  ): T[] {
    const what = named('array', field);
    if (count > MAX_ARRAY_ELEMENTS) {
      this.fail(`${what} count ${count} is over ${MAX_ARRAY_ELEMENTS}, the most Kafka reads`, start);
    }
    // Never less than a byte an item: a zero-byte item would let a huge count spin without failing.
    if (count * Math.max(1, minItemBytes) > this.remaining) {
      this.fail(`${what} count ${count} cannot fit in the ${this.remaining} bytes left`, start);
    }
    const out: T[] = [];
    for (let i = 0; i < count; i++) out.push(item(this));
    return out;
  }

  readNullableArray<T>(item: (reader: Reader) => T, minItemBytes = 1, field?: string): T[] | null {
    const start = this.#offset;
    const count = this.readInt32();
    if (count === -1) return null;
    if (count < 0) this.fail(`negative array count ${count}`, start);
    return this.#items(count, start, item, minItemBytes, field);
  }

  readArray<T>(item: (reader: Reader) => T, minItemBytes = 1, field?: string): T[] {
    const start = this.#offset;
    const value = this.readNullableArray(item, minItemBytes, field);
    if (value === null)
      this.fail(`null in the non-nullable array${field === undefined ? '' : ` '${field}'`}`, start);
    return value;
  }

  readCompactNullableArray<T>(item: (reader: Reader) => T, minItemBytes = 1, field?: string): T[] | null {
    const start = this.#offset;
    const n = this.readUnsignedVarint();
    if (n === 0) return null;
    return this.#items(n - 1, start, item, minItemBytes, field);
  }

  readCompactArray<T>(item: (reader: Reader) => T, minItemBytes = 1, field?: string): T[] {
    const start = this.#offset;
    const value = this.readCompactNullableArray(item, minItemBytes, field);
    if (value === null)
      this.fail(`null in the non-nullable compact array${field === undefined ? '' : ` '${field}'`}`, start);
    return value;
  }

  /**
   * The tagged-field section that ends every flexible struct. `handler` reads the tags it knows
   * from a Reader bounded to that one field (it must read all of it); the others are returned.
   */
  readTaggedFields(handler?: TaggedFieldHandler): TaggedField[] {
    const start = this.#offset;
    const count = this.readUnsignedVarint();
    if (count > MAX_TAGGED_FIELDS) {
      this.fail(`tagged field count ${count} is over ${MAX_TAGGED_FIELDS}, the most Kafka reads`, start);
    }
    // A field takes at least two bytes: its tag and its size.
    if (count * 2 > this.remaining) {
      this.fail(`tagged field count ${count} cannot fit in the ${this.remaining} bytes left`, start);
    }
    const unknown: TaggedField[] = [];
    let previous = -1;
    for (let i = 0; i < count; i++) {
      const tagAt = this.#offset;
      const tag = this.readUnsignedVarint();
      // Kafka writes tags in ascending order; a repeat would make "which value wins" ambiguous.
      if (tag <= previous) this.fail(`tagged field ${tag} out of order or repeated`, tagAt);
      previous = tag;
      const size = this.readUnsignedVarint();
      const at = this.#need(size, `tagged field ${tag}`);
      if (handler) {
        const field = new Reader(this.#bytes, at, at + size);
        if (handler(tag, field)) {
          if (field.remaining !== 0)
            this.fail(`tagged field ${tag} has ${field.remaining} unread bytes`, field.offset);
          continue;
        }
      }
      unknown.push({ tag, data: this.#bytes.slice(at, at + size) });
    }
    return unknown;
  }

  /** Fails unless every byte was read: a longer body means the two sides disagree on the schema. */
  expectEnd(): void {
    if (this.remaining !== 0) this.fail(`${this.remaining} bytes left over after the message`);
  }
}
