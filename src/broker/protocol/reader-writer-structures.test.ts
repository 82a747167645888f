/** The codec's reader and writer on bytes, arrays and tagged fields, and their own bookkeeping. */

import { describe, expect, it } from 'vitest';
import { ProtocolDecodeError, ProtocolEncodeError } from './decode-error.js';
import { Reader } from './reader.js';
import { bytesOf, decodeFailure, hex, roundTrip, toHex } from './test-utils.js';
import { Writer } from './writer.js';

describe('bytes', () => {
  it('round-trips empty, null and binary values in both forms', () => {
    const b = new Uint8Array([0, 1, 2, 255]);
    roundTrip<Uint8Array>(
      (w, v) => w.writeBytes(v),
      (r) => r.readBytes(),
      b,
      hex`00 00 00 04 00 01 02 ff`,
    );
    roundTrip<Uint8Array>(
      (w, v) => w.writeCompactBytes(v),
      (r) => r.readCompactBytes(),
      b,
      hex`05 00 01 02 ff`,
    );
    roundTrip<Uint8Array>(
      (w, v) => w.writeBytes(v),
      (r) => r.readBytes(),
      new Uint8Array(),
      hex`00 00 00 00`,
    );
    roundTrip<Uint8Array | null>(
      (w, v) => w.writeNullableBytes(v),
      (r) => r.readNullableBytes(),
      null,
      hex`ff ff ff ff`,
    );
    roundTrip<Uint8Array | null>(
      (w, v) => w.writeCompactNullableBytes(v),
      (r) => r.readCompactNullableBytes(),
      null,
      hex`00`,
    );
  });

  it('copies, so a decoded value does not alias the input', () => {
    const input = hex`00 00 00 01 aa`;
    const value = new Reader(input).readBytes();
    input[4] = 0;
    expect(value).toEqual(new Uint8Array([0xaa]));
  });

  it('refuses huge and negative lengths before allocating', () => {
    expect(decodeFailure(() => new Reader(hex`7f ff ff ff 00`).readBytes()).reason).toMatch(/truncated/);
    expect(decodeFailure(() => new Reader(hex`ff ff ff fe`).readNullableBytes()).reason).toMatch(/negative/);
    expect(decodeFailure(() => new Reader(hex`ff ff ff ff 0f`).readCompactBytes()).reason).toMatch(
      /truncated/,
    );
  });
});

describe('arrays', () => {
  const int32s = (r: Reader) => r.readInt32();
  it('round-trips arrays in both forms, with null', () => {
    const write = (w: Writer, v: number) => w.writeInt32(v);
    roundTrip<number[]>(
      (w, v) => w.writeArray(v, write),
      (r) => r.readArray(int32s, 4),
      [1, -1],
      hex`
      00 00 00 02   # count 2
      00 00 00 01   # 1
      ff ff ff ff   # -1
    `,
    );
    roundTrip<number[]>(
      (w, v) => w.writeCompactArray(v, write),
      (r) => r.readCompactArray(int32s, 4),
      [7],
      hex`
      02            # count 1, as 1 + 1
      00 00 00 07
    `,
    );
    roundTrip<number[]>(
      (w, v) => w.writeArray(v, write),
      (r) => r.readArray(int32s),
      [],
      hex`00 00 00 00`,
    );
    roundTrip<number[]>(
      (w, v) => w.writeCompactArray(v, write),
      (r) => r.readCompactArray(int32s),
      [],
      hex`01`,
    );
    roundTrip<number[] | null>(
      (w, v) => w.writeNullableArray(v, write),
      (r) => r.readNullableArray(int32s),
      null,
      hex`ff ff ff ff`,
    );
    roundTrip<number[] | null>(
      (w, v) => w.writeCompactNullableArray(v, write),
      (r) => r.readCompactNullableArray(int32s),
      null,
      hex`00`,
    );
  });

  it('fails at once on a count that cannot fit, without calling the item reader', () => {
    let calls = 0;
    const item = (r: Reader) => {
      calls++;
      return r.readInt8();
    };
    // Two billion items announced in a ten-byte frame.
    const huge = hex`77 35 94 00 00 00 00 00 00 00`;
    expect(decodeFailure(() => new Reader(huge).readArray(item)).reason).toMatch(/count 2000000000/);
    expect(decodeFailure(() => new Reader(hex`ff ff ff ff 0f 00`).readCompactArray(item)).reason).toMatch(
      /count/,
    );
    // The per-item minimum: 3 int32 items need 12 bytes, not 3.
    expect(
      decodeFailure(() => new Reader(hex`00 00 00 03 00 00 00 00 00 00 00`).readArray(item, 4)).reason,
    ).toMatch(/count 3/);
    expect(calls).toBe(0);
  });

  it('refuses null where not nullable and negative counts', () => {
    expect(decodeFailure(() => new Reader(hex`ff ff ff ff`).readArray(int32s)).reason).toMatch(/null/);
    expect(decodeFailure(() => new Reader(hex`00`).readCompactArray(int32s)).reason).toMatch(/null/);
    expect(decodeFailure(() => new Reader(hex`80 00 00 00`).readNullableArray(int32s)).reason).toMatch(
      /negative/,
    );
  });
});

describe('tagged fields', () => {
  it('keeps unknown tags and hands known ones to the handler, bounded to their bytes', () => {
    const bytes = hex`
      03            # 3 tagged fields
      00 01 07      # tag 0, 1 byte: 7
      02 02 00 2a   # tag 2, 2 bytes: int16 42
      0a 00         # tag 10, empty
    `;
    const r = new Reader(bytes);
    const seen: Array<[number, number]> = [];
    const unknown = r.readTaggedFields((tag, field) => {
      if (tag === 2) {
        seen.push([tag, field.readInt16()]);
        return true;
      }
      return false;
    });
    expect(seen).toEqual([[2, 42]]);
    expect(unknown).toEqual([
      { tag: 0, data: new Uint8Array([7]) },
      { tag: 10, data: new Uint8Array() },
    ]);
    expect(r.remaining).toBe(0);
    expect(toHex(bytesOf((w) => w.writeTaggedFields([...unknown, { tag: 2, data: hex`00 2a` }])))).toBe(
      toHex(bytes),
    );
  });

  it('writes an empty section as one zero byte, and sorts tags', () => {
    expect(toHex(bytesOf((w) => w.writeTaggedFields()))).toBe('00');
    expect(
      toHex(
        bytesOf((w) =>
          w.writeTaggedFields([
            { tag: 5, data: hex`01` },
            { tag: 1, data: hex`` },
          ]),
        ),
      ),
    ).toBe('02 01 00 05 01 01');
    expect(() =>
      new Writer().writeTaggedFields([
        { tag: 1, data: hex`` },
        { tag: 1, data: hex`` },
      ]),
    ).toThrow(ProtocolEncodeError);
  });

  it('refuses a handler that leaves bytes unread, out-of-order tags, and sizes past the end', () => {
    const partial = decodeFailure(() => new Reader(hex`01 00 02 00 01`).readTaggedFields(() => true));
    expect(partial.reason).toMatch(/unread/);
    const overread = decodeFailure(() =>
      new Reader(hex`01 00 01 07 ff ff`).readTaggedFields((_, field) => {
        field.readInt16(); // one byte in the field: must not read into what follows
        return true;
      }),
    );
    expect(overread.reason).toMatch(/truncated/);
    expect(decodeFailure(() => new Reader(hex`02 01 00 01 00`).readTaggedFields()).reason).toMatch(/order/);
    expect(decodeFailure(() => new Reader(hex`01 00 05 00`).readTaggedFields()).reason).toMatch(/truncated/);
    expect(decodeFailure(() => new Reader(hex`ff ff ff 7f 00`).readTaggedFields()).reason).toMatch(/count/);
  });
});

describe('Reader bookkeeping', () => {
  it('reports offset and remaining, and errors carry the offset of the failed read', () => {
    const r = new Reader(hex`00 01 00 02 aa`);
    expect([r.offset, r.remaining]).toEqual([0, 5]);
    r.readInt16();
    expect([r.offset, r.remaining]).toEqual([2, 3]);
    const error = decodeFailure(() => r.readInt32());
    expect(error).toBeInstanceOf(ProtocolDecodeError);
    expect(error.offset).toBe(2);
    expect(decodeFailure(() => r.expectEnd()).reason).toMatch(/3 bytes left over/);
  });

  it('reads a window of a larger array with offsets of the whole', () => {
    const r = new Reader(hex`ff ff 00 07 ff`, 2, 4);
    expect(r.readInt16()).toBe(7);
    expect(r.offset).toBe(4);
    expect(r.remaining).toBe(0);
    expect(decodeFailure(() => r.readInt8()).offset).toBe(4);
  });

  it('reads from a subarray with a non-zero byteOffset', () => {
    const outer = hex`ee ee 00 00 00 2a`;
    expect(new Reader(outer.subarray(2)).readInt32()).toBe(42);
  });
});

describe('Writer growth', () => {
  it('grows past its initial capacity and finish() returns only what was written', () => {
    const w = new Writer(1);
    for (let i = 0; i < 1000; i++) w.writeInt32(i);
    const out = w.finish();
    expect(out.length).toBe(4000);
    const r = new Reader(out);
    for (let i = 0; i < 1000; i++) expect(r.readInt32()).toBe(i);
  });
});
