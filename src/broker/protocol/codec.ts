/**
 * What the message modules are written with: a Reader/Writer that knows the version being spoken,
 * so one call reads "a string" as int16-prefixed before the first flexible version and compact
 * after it, and the tagged-field section appears only where the version has one.
 */

import { ProtocolDecodeError, UnsupportedFieldVersionError } from './decode-error.js';
import type { Reader, TaggedField, TaggedFieldHandler } from './reader.js';
import { Writer } from './writer.js';

/** Present on every struct of a flexible version when the peer sent tags this codec does not know. */
export interface Tagged {
  unknownTaggedFields?: TaggedField[];
}

export class Decoder {
  constructor(
    readonly reader: Reader,
    readonly version: number,
    readonly flexible: boolean,
  ) {}

  int8(): number {
    return this.reader.readInt8();
  }
  int16(): number {
    return this.reader.readInt16();
  }
  int32(): number {
    return this.reader.readInt32();
  }
  int64(): bigint {
    return this.reader.readInt64();
  }
  boolean(): boolean {
    return this.reader.readBoolean();
  }
  uuid(): string {
    return this.reader.readUuid();
  }
  /** `field`: the string's name in the message, which a decode error names (as for arrays). */
  string(field?: string): string {
    return this.flexible ? this.reader.readCompactString(field) : this.reader.readString(field);
  }
  nullableString(field?: string): string | null {
    return this.flexible
      ? this.reader.readCompactNullableString(field)
      : this.reader.readNullableString(field);
  }
  bytes(field?: string): Uint8Array {
    return this.flexible ? this.reader.readCompactBytes(field) : this.reader.readBytes(field);
  }
  nullableBytes(field?: string): Uint8Array | null {
    return this.flexible ? this.reader.readCompactNullableBytes(field) : this.reader.readNullableBytes(field);
  }
  /** `field`: the array's name in the message, which a decode error names. */
  array<T>(item: (d: Decoder) => T, minItemBytes = 1, field?: string): T[] {
    const read = () => item(this);
    return this.flexible
      ? this.reader.readCompactArray(read, minItemBytes, field)
      : this.reader.readArray(read, minItemBytes, field);
  }
  nullableArray<T>(item: (d: Decoder) => T, minItemBytes = 1, field?: string): T[] | null {
    const read = () => item(this);
    return this.flexible
      ? this.reader.readCompactNullableArray(read, minItemBytes, field)
      : this.reader.readNullableArray(read, minItemBytes, field);
  }
  int32Array(field?: string): number[] {
    return this.array((d) => d.int32(), 4, field);
  }
  stringArray(field?: string): string[] {
    return this.array((d) => d.string(field === undefined ? undefined : `${field}[]`), 1, field);
  }

  /** The struct's tagged fields in flexible versions: the unknown ones, or undefined when none. */
  tags(handler?: TaggedFieldHandler): TaggedField[] | undefined {
    if (!this.flexible) return undefined;
    const unknown = this.reader.readTaggedFields(handler);
    return unknown.length > 0 ? unknown : undefined;
  }

  /** A Decoder for a known tagged field's bytes. */
  sub(reader: Reader): Decoder {
    return new Decoder(reader, this.version, this.flexible);
  }

  fail(reason: string): never {
    throw new ProtocolDecodeError(reason, this.reader.offset);
  }
}

export class Encoder {
  readonly writer: Writer;

  constructor(
    readonly version: number,
    readonly flexible: boolean,
    writer?: Writer,
  ) {
    this.writer = writer ?? new Writer();
  }

  int8(value: number): this {
    this.writer.writeInt8(value);
    return this;
  }
  int16(value: number): this {
    this.writer.writeInt16(value);
    return this;
  }
  int32(value: number): this {
    this.writer.writeInt32(value);
    return this;
  }
  int64(value: bigint): this {
    this.writer.writeInt64(value);
    return this;
  }
  boolean(value: boolean): this {
    this.writer.writeBoolean(value);
    return this;
  }
  uuid(value: string): this {
    this.writer.writeUuid(value);
    return this;
  }
  string(value: string): this {
    if (this.flexible) this.writer.writeCompactString(value);
    else this.writer.writeString(value);
    return this;
  }
  nullableString(value: string | null): this {
    if (this.flexible) this.writer.writeCompactNullableString(value);
    else this.writer.writeNullableString(value);
    return this;
  }
  bytes(value: Uint8Array): this {
    if (this.flexible) this.writer.writeCompactBytes(value);
    else this.writer.writeBytes(value);
    return this;
  }
  nullableBytes(value: Uint8Array | null): this {
    if (this.flexible) this.writer.writeCompactNullableBytes(value);
    else this.writer.writeNullableBytes(value);
    return this;
  }
  array<T>(items: readonly T[], item: (e: Encoder, value: T) => void): this {
    const write = (_: Writer, value: T) => item(this, value);
    if (this.flexible) this.writer.writeCompactArray(items, write);
    else this.writer.writeArray(items, write);
    return this;
  }
  nullableArray<T>(items: readonly T[] | null, item: (e: Encoder, value: T) => void): this {
    const write = (_: Writer, value: T) => item(this, value);
    if (this.flexible) this.writer.writeCompactNullableArray(items, write);
    else this.writer.writeNullableArray(items, write);
    return this;
  }
  int32Array(items: readonly number[]): this {
    return this.array(items, (e, v) => e.int32(v));
  }
  stringArray(items: readonly string[]): this {
    return this.array(items, (e, v) => e.string(v));
  }

  /**
   * The struct's tagged-field section: `known` are this codec's own tags (already encoded), written
   * together with the unknown ones carried over from a decode. Non-flexible versions have no such
   * section, so carrying tags there is refused like any other field the version lacks.
   */
  tags(unknown: readonly TaggedField[] | undefined, known: readonly TaggedField[] = []): this {
    if (!this.flexible) {
      this.absent('unknownTaggedFields', unknown, []);
      return this;
    }
    this.writer.writeTaggedFields(unknown ? [...known, ...unknown] : known);
    return this;
  }

  /** A known tagged field, encoded in this version's flavour. */
  tagged(tag: number, write: (e: Encoder) => void): TaggedField {
    const e = new Encoder(this.version, this.flexible, new Writer(32));
    write(e);
    return { tag, data: e.writer.finish() };
  }

  /** Refuses a non-default value in a field this version does not have (see UnsupportedFieldVersionError). */
  absent(field: string, value: unknown, defaultValue: unknown): void {
    if (value === undefined || isDefault(value, defaultValue)) return;
    throw new UnsupportedFieldVersionError(field, this.version);
  }

  finish(): Uint8Array {
    return this.writer.finish();
  }
}

function isDefault(value: unknown, defaultValue: unknown): boolean {
  if (Array.isArray(defaultValue)) return Array.isArray(value) && value.length === 0;
  if (defaultValue instanceof Uint8Array) return value instanceof Uint8Array && value.length === 0;
  return value === defaultValue;
}

/** Drops keys whose value is undefined, so a decoded struct has exactly its version's fields. */
export function defined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] === undefined) delete value[key];
  }
  return value;
}
