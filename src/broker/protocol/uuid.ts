/**
 * Kafka prints a Uuid as the URL-safe base64 of its 16 bytes without padding (Uuid.toString), which
 * is what its tools and logs show for topic ids; using the same form lets users paste ids across.
 * Hand-rolled because Buffer is Node-only and btoa/atob work on binary strings, not bytes.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

export const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA';

/** 16 bytes → 22 characters. */
export function uuidToString(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new RangeError(`a uuid has 16 bytes, not ${bytes.length}`);
  let out = '';
  let i = 0;
  for (; i + 3 <= 15; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out += ALPHABET[(n >>> 18) & 63];
    out += ALPHABET[(n >>> 12) & 63];
    out += ALPHABET[(n >>> 6) & 63];
    out += ALPHABET[n & 63];
  }
  // 15 bytes make 20 characters; the 16th byte makes two more (8 bits in 12, the low 4 zero).
  const last = bytes[15] as number;
  out += ALPHABET[last >>> 2];
  out += ALPHABET[(last & 3) << 4];
  return out;
}

/** 22 characters → 16 bytes, or undefined when the text is not a uuid in that form. */
export function uuidFromString(text: string): Uint8Array | undefined {
  if (text.length !== 22) return undefined;
  const bytes = new Uint8Array(16);
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (let i = 0; i < 22; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? (VALUES[code] as number) : -1;
    if (value < 0) return undefined;
    acc = (acc << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      if (at < 16) bytes[at++] = (acc >>> bits) & 0xff;
      acc &= (1 << bits) - 1;
    }
  }
  // The last character carries 4 bits of padding: non-zero ones would make two texts for one uuid.
  if (acc !== 0) return undefined;
  return bytes;
}
