import { describe, expect, it } from 'vitest';
import { ProtocolDecodeError, ProtocolEncodeError } from './decode-error.js';
import { Reader } from './reader.js';
import { decodeFailure, hex, toHex } from './test-utils.js';
import { uuidFromString, uuidToString, ZERO_UUID } from './uuid.js';
import { Writer } from './writer.js';

function bytesOf(write: (w: Writer) => void): Uint8Array {
  const w = new Writer(16);
  write(w);
  return w.finish();
}

/** Writes `value`, checks the bytes if given, reads it back, and checks nothing is left. */
function roundTrip<T>(
  write: (w: Writer, v: T) => void,
  read: (r: Reader) => T,
  value: T,
  expected?: Uint8Array,
) {
  const bytes = bytesOf((w) => write(w, value));
  if (expected) expect(toHex(bytes)).toBe(toHex(expected));
  const r = new Reader(bytes);
  expect(read(r)).toEqual(value);
  expect(r.remaining).toBe(0);
  expect(r.offset).toBe(bytes.length);
}

describe('fixed-width integers', () => {
  it.each([
    ['int8', (w: Writer, v: number) => w.writeInt8(v), (r: Reader) => r.readInt8(), [-128, -1, 0, 1, 127]],
    [
      'int16',
      (w: Writer, v: number) => w.writeInt16(v),
      (r: Reader) => r.readInt16(),
      [-32768, -1, 0, 32767],
    ],
    ['uint16', (w: Writer, v: number) => w.writeUint16(v), (r: Reader) => r.readUint16(), [0, 1, 65535]],
    [
      'int32',
      (w: Writer, v: number) => w.writeInt32(v),
      (r: Reader) => r.readInt32(),
      [-2147483648, -1, 0, 2147483647],
    ],
    ['uint32', (w: Writer, v: number) => w.writeUint32(v), (r: Reader) => r.readUint32(), [0, 1, 4294967295]],
  ] as const)('%s round-trips its extremes', (_, write, read, values) => {
    for (const v of values) roundTrip(write, read, v);
  });

  it('writes big-endian', () => {
    expect(toHex(bytesOf((w) => w.writeInt16(0x0102).writeInt32(-2).writeUint16(0xfffe)))).toBe(
      '01 02 ff ff ff fe ff fe',
    );
  });

  it('round-trips int64 extremes as bigint', () => {
    roundTrip(
      (w, v) => w.writeInt64(v),
      (r) => r.readInt64(),
      -(2n ** 63n),
      hex`80 00 00 00 00 00 00 00`,
    );
    roundTrip(
      (w, v) => w.writeInt64(v),
      (r) => r.readInt64(),
      2n ** 63n - 1n,
      hex`7f ff ff ff ff ff ff ff`,
    );
    roundTrip(
      (w, v) => w.writeInt64(v),
      (r) => r.readInt64(),
      -1n,
      hex`ff ff ff ff ff ff ff ff`,
    );
    roundTrip(
      (w, v) => w.writeInt64(v),
      (r) => r.readInt64(),
      0n,
    );
  });

  it('refuses values out of range instead of wrapping them', () => {
    expect(() => new Writer().writeInt8(128)).toThrow(ProtocolEncodeError);
    expect(() => new Writer().writeInt16(40000)).toThrow(ProtocolEncodeError);
    expect(() => new Writer().writeInt32(2 ** 31)).toThrow(ProtocolEncodeError);
    expect(() => new Writer().writeInt32(1.5)).toThrow(ProtocolEncodeError);
    expect(() => new Writer().writeUint32(-1)).toThrow(ProtocolEncodeError);
    expect(() => new Writer().writeInt64(2n ** 63n)).toThrow(ProtocolEncodeError);
  });

  it('round-trips float64 and booleans', () => {
    for (const v of [0, -0, 1.5, -1e300, Number.MAX_VALUE, Number.MIN_VALUE, Number.POSITIVE_INFINITY]) {
      roundTrip(
        (w, x) => w.writeFloat64(x),
        (r) => r.readFloat64(),
        v,
      );
    }
    const nan = new Reader(bytesOf((w) => w.writeFloat64(Number.NaN))).readFloat64();
    expect(Number.isNaN(nan)).toBe(true);
    roundTrip(
      (w, v) => w.writeBoolean(v),
      (r) => r.readBoolean(),
      true,
      hex`01`,
    );
    roundTrip(
      (w, v) => w.writeBoolean(v),
      (r) => r.readBoolean(),
      false,
      hex`00`,
    );
    // Kafka reads any non-zero byte as true.
    expect(new Reader(hex`02`).readBoolean()).toBe(true);
  });
});

describe('varints', () => {
  const varint = (v: number, expected?: Uint8Array) =>
    roundTrip(
      (w, x) => w.writeVarint(x),
      (r) => r.readVarint(),
      v,
      expected,
    );

  it('zigzag-encodes signed 32-bit values (golden bytes from the zigzag rule)', () => {
    varint(0, hex`00`);
    varint(-1, hex`01`);
    varint(1, hex`02`);
    varint(-64, hex`7f`);
    varint(64, hex`80 01`);
    varint(300, hex`d8 04`); // zigzag 600 = 0b100_1011000
    varint(2147483647, hex`fe ff ff ff 0f`);
    varint(-2147483648, hex`ff ff ff ff 0f`);
  });

  it('encodes unsigned varints up to 2^32-1', () => {
    const u = (v: number, expected: Uint8Array) =>
      roundTrip(
        (w, x) => w.writeUnsignedVarint(x),
        (r) => r.readUnsignedVarint(),
        v,
        expected,
      );
    u(0, hex`00`);
    u(127, hex`7f`);
    u(128, hex`80 01`);
    u(16383, hex`ff 7f`);
    u(16384, hex`80 80 01`);
    u(4294967295, hex`ff ff ff ff 0f`);
    expect(() => new Writer().writeUnsignedVarint(-1)).toThrow(ProtocolEncodeError);
    expect(() => new Writer().writeUnsignedVarint(2 ** 32)).toThrow(ProtocolEncodeError);
  });

  it('zigzag-encodes varlongs over the whole int64 range', () => {
    const l = (v: bigint, expected?: Uint8Array) =>
      roundTrip(
        (w, x) => w.writeVarlong(x),
        (r) => r.readVarlong(),
        v,
        expected,
      );
    l(0n, hex`00`);
    l(-1n, hex`01`);
    l(1n, hex`02`);
    l(2n ** 63n - 1n, hex`fe ff ff ff ff ff ff ff ff 01`);
    l(-(2n ** 63n), hex`ff ff ff ff ff ff ff ff ff 01`);
    l(-(2n ** 31n) - 1n);
    l(2n ** 40n + 12345n);
  });

  it('refuses varints that are too long or overflow', () => {
    expect(decodeFailure(() => new Reader(hex`80 80 80 80 80 01`).readUnsignedVarint()).reason).toMatch(
      /longer than 5|32 bits/,
    );
    expect(decodeFailure(() => new Reader(hex`ff ff ff ff 1f`).readUnsignedVarint()).reason).toMatch(
      /32 bits/,
    );
    expect(
      decodeFailure(() => new Reader(hex`80 80 80 80 80 80 80 80 80 80 01`).readVarlong()).reason,
    ).toMatch(/64 bits|longer than 10/);
    expect(decodeFailure(() => new Reader(hex`ff ff ff ff ff ff ff ff ff 02`).readVarlong()).reason).toMatch(
      /64 bits/,
    );
    decodeFailure(() => new Reader(hex`80 80`).readVarint());
    decodeFailure(() => new Reader(hex``).readVarlong());
  });
});

describe('uuid', () => {
  it('uses Kafka string form: URL-safe base64 without padding', () => {
    roundTrip(
      (w, v) => w.writeUuid(v),
      (r) => r.readUuid(),
      ZERO_UUID,
      new Uint8Array(16),
    );
    roundTrip(
      (w, v) => w.writeUuid(v),
      (r) => r.readUuid(),
      'AAAAAAAAAAAAAAAAAAAAAQ',
      hex`00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01`,
    );
    // 0xfb 0xff -> '-' and '_' appear: the URL-safe alphabet, not '+' and '/'.
    roundTrip(
      (w, v) => w.writeUuid(v),
      (r) => r.readUuid(),
      '-_-_-_-_-_-_-_-_-_-_-w',
      hex`fb ff bf fb ff bf fb ff bf fb ff bf fb ff bf fb`,
    );
  });

  it('round-trips every byte value in every position', () => {
    for (let b = 0; b < 256; b++) {
      const bytes = new Uint8Array(16).map((_, i) => (b + i * 17) & 0xff);
      const text = uuidToString(bytes);
      expect(text).toHaveLength(22);
      expect(uuidFromString(text)).toEqual(bytes);
    }
  });

  it('refuses text that is not a uuid', () => {
    for (const bad of ['', 'AAAA', `${ZERO_UUID}A`, 'AAAAAAAAAAAAAAAAAAAAA+', 'AAAAAAAAAAAAAAAAAAAAAB']) {
      expect(() => new Writer().writeUuid(bad)).toThrow(ProtocolEncodeError);
    }
  });
});

describe('strings', () => {
  const str = (v: string, expected?: Uint8Array) =>
    roundTrip(
      (w, x) => w.writeString(x),
      (r) => r.readString(),
      v,
      expected,
    );
  const cstr = (v: string, expected?: Uint8Array) =>
    roundTrip(
      (w, x) => w.writeCompactString(x),
      (r) => r.readCompactString(),
      v,
      expected,
    );

  it('round-trips empty, ASCII and unicode strings in both forms', () => {
    str('', hex`00 00`);
    str('g1', hex`00 02 67 31`);
    cstr('', hex`01`);
    cstr('g1', hex`03 67 31`);
    // é is 2 UTF-8 bytes, the emoji 4: lengths count bytes, not UTF-16 units.
    str('é', hex`00 02 c3 a9`);
    cstr('😀', hex`05 f0 9f 98 80`);
    for (const s of ['group with spaces', 'a/b\\c', 'グループ', '\u0000', '\uFEFFbom', 'x'.repeat(200)]) {
      str(s);
      cstr(s);
    }
  });

  it('round-trips null in the nullable forms', () => {
    roundTrip<string | null>(
      (w, v) => w.writeNullableString(v),
      (r) => r.readNullableString(),
      null,
      hex`ff ff`,
    );
    roundTrip<string | null>(
      (w, v) => w.writeCompactNullableString(v),
      (r) => r.readCompactNullableString(),
      null,
      hex`00`,
    );
    roundTrip<string | null>(
      (w, v) => w.writeNullableString(v),
      (r) => r.readNullableString(),
      '',
      hex`00 00`,
    );
  });

  it('refuses null where the field is not nullable', () => {
    expect(decodeFailure(() => new Reader(hex`ff ff`).readString()).reason).toMatch(/null/);
    expect(decodeFailure(() => new Reader(hex`00`).readCompactString()).reason).toMatch(/null/);
  });

  it('refuses negative lengths other than -1, and lengths past the end', () => {
    expect(decodeFailure(() => new Reader(hex`ff fe`).readNullableString()).reason).toMatch(/negative/);
    expect(decodeFailure(() => new Reader(hex`00 05 61`).readString()).reason).toMatch(/truncated/);
    expect(decodeFailure(() => new Reader(hex`05 61`).readCompactString()).reason).toMatch(/truncated/);
  });

  it('refuses invalid UTF-8 instead of replacing it', () => {
    for (const bad of [hex`00 01 ff`, hex`00 02 c3 28`, hex`00 03 ed a0 80`, hex`00 01 c3`]) {
      expect(decodeFailure(() => new Reader(bad).readString()).reason).toMatch(/UTF-8/);
    }
  });

  it('keeps the 32767-byte limit on both sides', () => {
    const max = `${'é'.repeat(16383)}a`; // 32767 bytes
    str(max);
    cstr(max);
    expect(() => new Writer().writeString(`${max}a`)).toThrow(/32767/);
    expect(() => new Writer().writeCompactString(`${max}a`)).toThrow(/32767/);
    const long = new Uint8Array(3 + 32768);
    long.set(hex`81 80 02`); // compact length 32769 - 1 = 32768
    expect(decodeFailure(() => new Reader(long).readCompactString()).reason).toMatch(/over 32767/);
  });

  it('refuses strings with lone surrogates', () => {
    expect(() => new Writer().writeString('a\uD800b')).toThrow(/surrogate/);
    expect(() => new Writer().writeCompactString('\uDC00')).toThrow(/surrogate/);
  });
});

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
