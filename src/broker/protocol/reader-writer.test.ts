import { describe, expect, it } from 'vitest';
import { ProtocolEncodeError } from './decode-error.js';
import { Reader } from './reader.js';
import { bytesOf, decodeFailure, hex, roundTrip, toHex } from './test-utils.js';
import { uuidFromString, uuidToString, ZERO_UUID } from './uuid.js';
import { Writer } from './writer.js';

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
