/**
 * One file per RPC in src/broker/protocol/messages/, each the same shape: Kafka's wire grammar quoted
 * at its top (name, API key, versions, first flexible version, the Request and Response fields), a
 * codec that agrees with that header, a test beside it with golden bytes, and an entry in the
 * registry the stand-in broker and the frame decoders look codecs up in.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AnyApiMessage } from '../../src/broker/protocol/api.js';
import { API_MESSAGES } from '../../src/broker/protocol/registry.js';

const DIR = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'src/broker/protocol/messages');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
const HEADER =
  /^\/\*\s*\n\s*(\w+) \(API key (\d+)\), (?:versions (\d+)-(\d+)|version (\d+)(?: only)?), (?:flexible from (\d+)|not flexible)/;

const isApiMessage = (v: unknown): v is AnyApiMessage =>
  typeof v === 'object' && v !== null && 'apiKey' in v && 'encodeRequest' in v && 'decodeResponse' in v;

it('has codec files', () => {
  expect(FILES.length).toBeGreaterThan(10);
});

describe.each(FILES)('%s', (file) => {
  const source = readFileSync(join(DIR, file), 'utf8');

  it('quotes the wire grammar, and its codec agrees with the quote', async () => {
    const header = HEADER.exec(source);
    expect(header, 'a header such as "Fetch (API key 1), versions 4-18, flexible from 12"').not.toBeNull();
    const [, name, key, min, max, only, flexible] = header as RegExpExecArray;
    expect(source).toMatch(/^\s*Request =>/m);
    expect(source).toMatch(/^\s*Response =>/m);
    const codecs = Object.values(await import(join(DIR, file))).filter(isApiMessage);
    const codec = codecs.find((c) => c.name === name);
    expect(codec, `exports the codec ${name}`).toBeDefined();
    expect(codec?.apiKey).toBe(Number(key));
    expect(codec?.minVersion).toBe(Number(min ?? only));
    expect(codec?.maxVersion).toBe(Number(max ?? only));
    expect(codec?.flexibleFrom).toBe(flexible === undefined ? Number.POSITIVE_INFINITY : Number(flexible));
    expect(API_MESSAGES.get(Number(key)), `${name} is in src/broker/protocol/registry.ts`).toBe(codec);
  });

  it('has a test beside it with golden bytes', () => {
    const test = file.replace(/\.ts$/, '.test.ts');
    expect(readdirSync(DIR)).toContain(test);
    expect(readFileSync(join(DIR, test), 'utf8')).toMatch(/golden/i);
  });
});
