/**
 * What a broken or hostile broker's frame can make the decoder hold: every response the codec
 * reads, at every version, fed random frames built to lie about sizes (counts and lengths of up to
 * 2^31 at random places, then cut short at random), decodes or fails with a ProtocolDecodeError,
 * and what it decodes is never larger than the frame (every element, character and byte of it came
 * from at least one byte of the frame). And Kafka 4.4's own ceilings: 1,000,000 array elements,
 * 10,000 tagged fields, refused before anything is allocated, naming the array; a string or bytes
 * field the frame cannot hold is named too.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolDecodeError } from './decode-error.js';
import { MAX_ARRAY_ELEMENTS, MAX_TAGGED_FIELDS, Reader } from './reader.js';
import { API_MESSAGES } from './registry.js';

/** Pieces a lying frame is made of: plain bytes, and counts or lengths that claim too much. */
const piece = fc.oneof(
  fc.uint8Array({ maxLength: 12 }),
  // int32 counts and lengths (non-flexible versions), small to 2^31 - 1.
  fc
    .oneof(fc.integer({ min: 0, max: 8 }), fc.constantFrom(MAX_ARRAY_ELEMENTS + 1, 0x7fff, 0x7fffffff))
    .map((n) => new Uint8Array([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff])),
  // int16 string lengths.
  fc.constantFrom(new Uint8Array([0x7f, 0xff]), new Uint8Array([0x00, 0x03])),
  // Unsigned varints (compact counts and lengths, tagged-field counts), up to 2^32 - 1.
  fc.constantFrom(
    new Uint8Array([0x05]),
    new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f]),
    new Uint8Array([0xc3, 0x84, 0x3d]), // 1,000,003
    new Uint8Array([0x92, 0x4e]), // 10,002
  ),
);

const join = (parts: Uint8Array[]) => {
  const whole = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    whole.set(p, at);
    at += p.length;
  }
  return whole;
};

/** Sometimes whole, sometimes cut short anywhere. */
const cutShort = (bytes: Uint8Array, cut: number) =>
  cut % 3 === 0 ? bytes : bytes.subarray(0, cut % (bytes.length + 1));

/**
 * Frames of pieces alone, and frames of a response that decodes (`seed`) with pieces written into
 * it at random places: these get past the first fields, into the arrays and strings further on.
 */
const frameOf = (seed: Uint8Array | undefined) =>
  fc.oneof(
    fc
      .tuple(fc.array(piece, { maxLength: 16 }), fc.nat())
      .map(([pieces, cut]) => cutShort(join(pieces), cut)),
    ...(seed === undefined
      ? []
      : [
          fc
            .tuple(fc.array(fc.tuple(fc.nat(), piece), { minLength: 1, maxLength: 4 }), fc.nat())
            .map(([writes, cut]) => {
              let bytes = seed;
              for (const [at, p] of writes) {
                const from = at % (bytes.length + 1);
                bytes = join([bytes.subarray(0, from), p, bytes.subarray(from)]);
              }
              return cutShort(bytes, cut);
            }),
        ]),
  );

/** The shortest frame of zeros or of ones that decodes: the response with every field empty. */
function seedOf(decode: (bytes: Uint8Array) => unknown): Uint8Array | undefined {
  for (let n = 0; n <= 96; n++) {
    for (const fill of [0, 1]) {
      const bytes = new Uint8Array(n).fill(fill);
      try {
        decode(bytes);
        return bytes;
      } catch {}
    }
  }
  return undefined;
}

/** Elements, characters and bytes in a decoded value: each came from at least one byte of the frame. */
function size(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value instanceof Uint8Array) return value.length;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + 1 + size(v), 0);
  if (value !== null && typeof value === 'object')
    return Object.values(value).reduce((n: number, v) => n + size(v), 0);
  return 0;
}

const responses = [...API_MESSAGES.values()].flatMap((api) =>
  Array.from({ length: api.maxVersion - api.minVersion + 1 }, (_, i) => ({
    name: `${api.name} v${api.minVersion + i}`,
    decode: (bytes: Uint8Array) => api.decodeResponse(api.minVersion + i, bytes),
  })),
);

describe('the decoder over lying frames', () => {
  it.each(responses)('$name decodes or fails, never holding more than its frame', ({ decode }) => {
    fc.assert(
      fc.property(frameOf(seedOf(decode)), (bytes) => {
        let decoded: unknown;
        try {
          decoded = decode(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(ProtocolDecodeError);
          // A string or bytes field the frame cannot hold is named, as arrays are.
          const { message } = error as ProtocolDecodeError;
          if (
            /(truncated: |negative |non-nullable (compact )?)(string|bytes)\b|(string|bytes) (length|is not)/.test(
              message,
            )
          )
            expect(message).toMatch(/\b(string|bytes) '\w+(\[\])?'/);
          return;
        }
        expect(size(decoded)).toBeLessThanOrEqual(bytes.length);
      }),
      { numRuns: 150 },
    );
  });
});

/** An unsigned varint's bytes. */
function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

describe("Kafka 4.4's ceilings", () => {
  const compactArray = (count: number) =>
    new Reader(new Uint8Array([...varint(count + 1), ...new Uint8Array(count)]));

  it('reads an array of 1,000,000 one-byte elements, refuses 1,000,001 before reading one, naming it', () => {
    let items = 0;
    const read = (r: Reader) => {
      items++;
      return r.readInt8();
    };
    expect(compactArray(MAX_ARRAY_ELEMENTS).readCompactArray(read, 1, 'groups')).toHaveLength(
      MAX_ARRAY_ELEMENTS,
    );
    items = 0;
    expect(() => compactArray(MAX_ARRAY_ELEMENTS + 1).readCompactArray(read, 1, 'groups')).toThrow(
      "array 'groups' count 1000001 is over 1000000, the most Kafka reads",
    );
    expect(items).toBe(0);
  });

  it('refuses a tagged section of more than 10,000 fields before reading one', () => {
    const fields: number[] = [];
    for (let tag = 0; tag <= MAX_TAGGED_FIELDS; tag++) fields.push(...varint(tag), 0);
    const reader = new Reader(new Uint8Array([...varint(MAX_TAGGED_FIELDS + 1), ...fields]));
    expect(() => reader.readTaggedFields()).toThrow('tagged field count 10001 is over 10000');
    const within = new Reader(
      new Uint8Array([
        ...varint(MAX_TAGGED_FIELDS),
        ...fields.slice(0, -varint(MAX_TAGGED_FIELDS).length - 1),
      ]),
    );
    expect(within.readTaggedFields()).toHaveLength(MAX_TAGGED_FIELDS);
  });

  it('names the string and the bytes a frame cannot hold, in a real response', () => {
    const describeGroups = API_MESSAGES.get(15);
    // DescribeGroups v5: throttle, one group, no error, then a groupId claiming 1,000 bytes in 3.
    const group = [0, 0, 0, 0, ...varint(2), 0, 0];
    expect(() =>
      describeGroups?.decodeResponse(5, new Uint8Array([...group, ...varint(1001), 1, 2, 3])),
    ).toThrow(/truncated: string 'groupId' needs 1000 bytes, 3 left/);
    expect(() =>
      describeGroups?.decodeResponse(5, new Uint8Array([...group, ...varint(0x8000 + 1), 1, 2, 3])),
    ).toThrow(/string 'groupId' length 32768 is over 32767/);
    // DescribeGroups v0: one group, no error, id "g", state, protocol type, protocol, one member
    // "m" (client id, host), its metadata, then an assignment claiming 2^31 - 1 bytes.
    const str = (s: string) => [0, s.length, ...Buffer.from(s)];
    const v0 = [0, 0, 0, 1, 0, 0, ...str('g'), ...str('Stable'), ...str('consumer'), ...str('range')];
    const member = [0, 0, 0, 1, ...str('m'), ...str('c'), ...str('h'), 0, 0, 0, 0];
    expect(() =>
      describeGroups?.decodeResponse(0, new Uint8Array([...v0, ...member, 0x7f, 0xff, 0xff, 0xff, 9])),
    ).toThrow(/truncated: bytes 'memberAssignment' needs 2147483647 bytes, 1 left/);
  });

  it('names the array whose count a frame cannot hold, in a real response', () => {
    const describeGroups = API_MESSAGES.get(15);
    // DescribeGroups v5 (flexible): throttle, then `groups` claiming 2^31 entries in 5 bytes.
    const bytes = new Uint8Array([0, 0, 0, 0, ...varint(2 ** 31)]);
    expect(() => describeGroups?.decodeResponse(5, bytes)).toThrow(/array 'groups' count 2147483647/);
  });
});
