/**
 * Writes Kafka's primitive types into a growing byte array. Values are checked rather than wrapped:
 * DataView would silently turn 40000 into an int16 of -25536, and the broker would then act on a
 * different request than the one the caller wrote.
 */

import { ProtocolEncodeError } from './decode-error.js';
import { MAX_STRING_BYTES, type TaggedField } from './reader.js';
import { uuidFromString } from './uuid.js';

const utf8 = new TextEncoder();
// TextEncoder replaces a lone surrogate by U+FFFD; such a string cannot be a group id the broker
// holds (those come from valid UTF-8), so sending a mangled one is refused instead.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function fail(reason: string): never {
  throw new ProtocolEncodeError(reason);
}

function checkInt(value: number, min: number, max: number, type: string): void {
  if (!Number.isInteger(value) || value < min || value > max) fail(`${value} is not a valid ${type}`);
}

export class Writer {
  #buf: Uint8Array;
  #view: DataView;
  #len = 0;

  constructor(initialCapacity = 256) {
    this.#buf = new Uint8Array(Math.max(16, initialCapacity));
    this.#view = new DataView(this.#buf.buffer);
  }

  get length(): number {
    return this.#len;
  }

  /**
   * Makes room for n bytes and returns where they go. Call it before touching #buf or #view: it may
   * replace both, and `this.#buf.set(x, this.#reserve(n))` would write into the old array.
   */
  #reserve(n: number): number {
    const at = this.#len;
    if (at + n > this.#buf.length) {
      let capacity = this.#buf.length * 2;
      while (capacity < at + n) capacity *= 2;
      const next = new Uint8Array(capacity);
      next.set(this.#buf.subarray(0, at));
      this.#buf = next;
      this.#view = new DataView(next.buffer);
    }
    this.#len = at + n;
    return at;
  }

  /** The bytes written so far, as a copy the writer no longer touches. */
  finish(): Uint8Array {
    return this.#buf.slice(0, this.#len);
  }

  writeRaw(bytes: Uint8Array): this {
    const at = this.#reserve(bytes.length);
    this.#buf.set(bytes, at);
    return this;
  }

  writeInt8(value: number): this {
    checkInt(value, -0x80, 0x7f, 'int8');
    const at = this.#reserve(1);
    this.#view.setInt8(at, value);
    return this;
  }

  writeInt16(value: number): this {
    checkInt(value, -0x8000, 0x7fff, 'int16');
    const at = this.#reserve(2);
    this.#view.setInt16(at, value);
    return this;
  }

  writeUint16(value: number): this {
    checkInt(value, 0, 0xffff, 'uint16');
    const at = this.#reserve(2);
    this.#view.setUint16(at, value);
    return this;
  }

  writeInt32(value: number): this {
    checkInt(value, -0x80000000, 0x7fffffff, 'int32');
    const at = this.#reserve(4);
    this.#view.setInt32(at, value);
    return this;
  }

  writeUint32(value: number): this {
    checkInt(value, 0, 0xffffffff, 'uint32');
    const at = this.#reserve(4);
    this.#view.setUint32(at, value);
    return this;
  }

  writeInt64(value: bigint): this {
    if (typeof value !== 'bigint' || value < INT64_MIN || value > INT64_MAX)
      fail(`${value} is not a valid int64`);
    const at = this.#reserve(8);
    this.#view.setBigInt64(at, value);
    return this;
  }

  writeFloat64(value: number): this {
    if (typeof value !== 'number') fail(`${value} is not a float64`);
    const at = this.#reserve(8);
    this.#view.setFloat64(at, value);
    return this;
  }

  writeBoolean(value: boolean): this {
    if (typeof value !== 'boolean') fail(`${value} is not a boolean`);
    const at = this.#reserve(1);
    this.#buf[at] = value ? 1 : 0;
    return this;
  }

  writeUuid(value: string): this {
    const bytes = typeof value === 'string' ? uuidFromString(value) : undefined;
    if (!bytes) fail(`'${value}' is not a uuid (22 characters of URL-safe base64)`);
    return this.writeRaw(bytes);
  }

  writeUnsignedVarint(value: number): this {
    checkInt(value, 0, 0xffffffff, 'unsigned varint');
    let v = value;
    while (v >= 0x80) {
      const at = this.#reserve(1);
      this.#buf[at] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    const at = this.#reserve(1);
    this.#buf[at] = v;
    return this;
  }

  writeVarint(value: number): this {
    checkInt(value, -0x80000000, 0x7fffffff, 'varint');
    return this.writeUnsignedVarint(((value << 1) ^ (value >> 31)) >>> 0);
  }

  writeVarlong(value: bigint): this {
    if (typeof value !== 'bigint' || value < INT64_MIN || value > INT64_MAX)
      fail(`${value} is not a valid varlong`);
    let v = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
    while (v >= 0x80n) {
      const at = this.#reserve(1);
      this.#buf[at] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    const at = this.#reserve(1);
    this.#buf[at] = Number(v);
    return this;
  }

  #utf8(value: string): Uint8Array {
    if (typeof value !== 'string') fail(`${String(value)} is not a string`);
    if (LONE_SURROGATE.test(value)) fail('string has a lone UTF-16 surrogate and cannot be UTF-8');
    const bytes = utf8.encode(value);
    if (bytes.length > MAX_STRING_BYTES) {
      fail(`string of ${bytes.length} UTF-8 bytes is over the ${MAX_STRING_BYTES} Kafka allows`);
    }
    return bytes;
  }

  writeNullableString(value: string | null): this {
    if (value === null) return this.writeInt16(-1);
    const bytes = this.#utf8(value);
    return this.writeInt16(bytes.length).writeRaw(bytes);
  }

  writeString(value: string): this {
    if (value === null || value === undefined) fail('null in a non-nullable string');
    return this.writeNullableString(value);
  }

  writeCompactNullableString(value: string | null): this {
    if (value === null) return this.writeUnsignedVarint(0);
    const bytes = this.#utf8(value);
    return this.writeUnsignedVarint(bytes.length + 1).writeRaw(bytes);
  }

  writeCompactString(value: string): this {
    if (value === null || value === undefined) fail('null in a non-nullable compact string');
    return this.writeCompactNullableString(value);
  }

  #bytes(value: Uint8Array): Uint8Array {
    if (!(value instanceof Uint8Array)) fail(`${String(value)} is not a Uint8Array`);
    return value;
  }

  writeNullableBytes(value: Uint8Array | null): this {
    if (value === null) return this.writeInt32(-1);
    return this.writeInt32(this.#bytes(value).length).writeRaw(value);
  }

  writeBytes(value: Uint8Array): this {
    if (value === null || value === undefined) fail('null in non-nullable bytes');
    return this.writeNullableBytes(value);
  }

  writeCompactNullableBytes(value: Uint8Array | null): this {
    if (value === null) return this.writeUnsignedVarint(0);
    return this.writeUnsignedVarint(this.#bytes(value).length + 1).writeRaw(value);
  }

  writeCompactBytes(value: Uint8Array): this {
    if (value === null || value === undefined) fail('null in non-nullable compact bytes');
    return this.writeCompactNullableBytes(value);
  }

  writeNullableArray<T>(items: readonly T[] | null, item: (writer: Writer, value: T) => void): this {
    if (items === null) return this.writeInt32(-1);
    if (!Array.isArray(items)) fail(`${String(items)} is not an array`);
    this.writeInt32(items.length);
    for (const value of items) item(this, value);
    return this;
  }

  writeArray<T>(items: readonly T[], item: (writer: Writer, value: T) => void): this {
    if (items === null || items === undefined) fail('null in a non-nullable array');
    return this.writeNullableArray(items, item);
  }

  writeCompactNullableArray<T>(items: readonly T[] | null, item: (writer: Writer, value: T) => void): this {
    if (items === null) return this.writeUnsignedVarint(0);
    if (!Array.isArray(items)) fail(`${String(items)} is not an array`);
    this.writeUnsignedVarint(items.length + 1);
    for (const value of items) item(this, value);
    return this;
  }

  writeCompactArray<T>(items: readonly T[], item: (writer: Writer, value: T) => void): this {
    if (items === null || items === undefined) fail('null in a non-nullable compact array');
    return this.writeCompactNullableArray(items, item);
  }

  /** Writes the tagged-field section, sorted by tag as Kafka requires; a tag given twice is an error. */
  writeTaggedFields(fields: readonly TaggedField[] = []): this {
    const sorted = [...fields].sort((a, b) => a.tag - b.tag);
    this.writeUnsignedVarint(sorted.length);
    let previous = -1;
    for (const { tag, data } of sorted) {
      if (tag === previous) fail(`tagged field ${tag} given twice`);
      previous = tag;
      this.writeUnsignedVarint(tag).writeUnsignedVarint(this.#bytes(data).length).writeRaw(data);
    }
    return this;
  }
}
