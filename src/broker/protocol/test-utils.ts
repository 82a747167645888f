/**
 * Test support for the codec (imported by the *.test.ts files only): golden bytes written as
 * annotated hex, and the fault checks every message gets.
 */

import { expect } from 'vitest';
import type { AnyApiMessage } from './api.js';
import { ProtocolDecodeError } from './decode-error.js';
import { Reader } from './reader.js';
import { Writer } from './writer.js';

/**
 * Bytes from annotated hex: one field per line, `#` starts a comment, whitespace is ignored.
 *   hex`
 *     00 02 67 31   # GroupId "g1"
 *   `
 */
export function hex(strings: TemplateStringsArray): Uint8Array {
  const digits = strings.raw
    .join('')
    .split('\n')
    .map((line) => line.replace(/#.*$/, ''))
    .join('')
    .replace(/\s+/g, '');
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(digits)) throw new Error(`not hex: ${digits}`);
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}

/** Runs `decode` and returns what it threw, failing the test if it returned or threw anything else. */
export function decodeFailure(decode: () => unknown): ProtocolDecodeError {
  let result: unknown;
  try {
    result = decode();
  } catch (error) {
    if (error instanceof ProtocolDecodeError) return error;
    throw new Error(`expected a ProtocolDecodeError, got ${String(error)}`, { cause: error });
  }
  throw new Error(`expected a ProtocolDecodeError, but it decoded to ${String(result)}`);
}

/**
 * Every strict prefix of a valid body must fail as a ProtocolDecodeError (never a hang, a
 * RangeError or a partial result), and so must the body with one byte too many.
 * `firstCut` skips prefixes that are valid on their own (empty consumer-protocol bytes).
 */
export function expectTruncationsFail(
  decode: (bytes: Uint8Array) => unknown,
  body: Uint8Array,
  firstCut = 0,
): void {
  for (let cut = firstCut; cut < body.length; cut++) {
    const error = decodeFailure(() => decode(body.subarray(0, cut)));
    expect(error.offset).toBeLessThanOrEqual(cut);
  }
  const longer = new Uint8Array(body.length + 1);
  longer.set(body);
  decodeFailure(() => decode(longer));
}

/** A small deterministic PRNG (mulberry32), so a failing fuzz case can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Decodes must either succeed or throw ProtocolDecodeError, whatever the bytes. */
export function expectDecodesOrFails(decode: (bytes: Uint8Array) => unknown, bytes: Uint8Array): void {
  try {
    decode(bytes);
  } catch (error) {
    if (!(error instanceof ProtocolDecodeError)) {
      throw new Error(`bytes ${toHex(bytes)} threw ${String(error)}`, { cause: error });
    }
  }
}

/**
 * Random bytes and byte-flipped copies of valid bodies, through every version's request and
 * response decoders.
 */
export function fuzz(
  api: AnyApiMessage,
  samples: Array<{ version: number; request: Uint8Array; response: Uint8Array }>,
) {
  const random = prng(api.apiKey * 7919 + 1);
  const rounds = 200;
  for (let version = api.minVersion; version <= api.maxVersion; version++) {
    for (let i = 0; i < rounds; i++) {
      const bytes = new Uint8Array(Math.floor(random() * 48));
      for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(random() * 256);
      expectDecodesOrFails((b) => api.decodeRequest(version, b), bytes);
      expectDecodesOrFails((b) => api.decodeResponse(version, b), bytes);
    }
  }
  for (const { version, request, response } of samples) {
    for (const [decode, body] of [
      [(b: Uint8Array) => api.decodeRequest(version, b), request],
      [(b: Uint8Array) => api.decodeResponse(version, b), response],
    ] as const) {
      for (let i = 0; i < rounds && body.length > 0; i++) {
        const bytes = body.slice();
        const flips = 1 + Math.floor(random() * 3);
        for (let f = 0; f < flips; f++)
          bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
        expectDecodesOrFails(decode, bytes);
      }
    }
  }
}

/** encode → decode gives back the same object, and encode of that gives the same bytes. */
export function expectRoundTrip<Req, Res>(
  api: { encodeRequest(v: number, r: Req): Uint8Array; decodeRequest(v: number, b: Uint8Array): Req } & {
    encodeResponse(v: number, r: Res): Uint8Array;
    decodeResponse(v: number, b: Uint8Array): Res;
  },
  version: number,
  request: Req,
  response: Res,
): { request: Uint8Array; response: Uint8Array } {
  const requestBytes = api.encodeRequest(version, request);
  const decodedRequest = api.decodeRequest(version, requestBytes);
  expect(decodedRequest).toStrictEqual(request);
  expect(api.encodeRequest(version, decodedRequest)).toEqual(requestBytes);
  const responseBytes = api.encodeResponse(version, response);
  const decodedResponse = api.decodeResponse(version, responseBytes);
  expect(decodedResponse).toStrictEqual(response);
  expect(api.encodeResponse(version, decodedResponse)).toEqual(responseBytes);
  return { request: requestBytes, response: responseBytes };
}

/** Every version from min to max of an API. */
export function versionsOf(api: { minVersion: number; maxVersion: number }): number[] {
  return Array.from({ length: api.maxVersion - api.minVersion + 1 }, (_, i) => api.minVersion + i);
}

/** The bytes `write` puts in a fresh Writer. */
export function bytesOf(write: (w: Writer) => void): Uint8Array {
  const w = new Writer(16);
  write(w);
  return w.finish();
}

/** Writes `value`, checks the bytes if given, reads it back, and checks nothing is left. */
export function roundTrip<T>(
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
