/**
 * API keys: the server holds only SHA-256 hashes of the keys, each under a name (the principal).
 * A presented key is hashed and compared with every stored hash without stopping at the first
 * difference or the first match, so the time taken says nothing about which bytes matched.
 * Web Crypto only: the same code runs on Node, Lambda and Workers.
 */

export interface ApiKeyEntry {
  /** The principal's name; grants are given to it. */
  name: string;
  /** SHA-256 of the key, 32 bytes. */
  sha256: Uint8Array;
}

const encoder = new TextEncoder();

export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

function equalInConstantTime(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] ?? 0);
  return diff === 0;
}

/** The name of the key `presented`, or undefined when no stored hash matches. */
export async function matchApiKey(
  entries: readonly ApiKeyEntry[],
  presented: string,
): Promise<string | undefined> {
  const digest = await sha256(presented);
  let match: string | undefined;
  for (const entry of entries) {
    if (equalInConstantTime(entry.sha256, digest) && match === undefined) match = entry.name;
  }
  return match;
}

export function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
