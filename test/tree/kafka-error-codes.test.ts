/**
 * Kafka error codes have one home, src/broker/protocol/errors.ts: everything else names them through
 * `ErrorCode`. A code spelled as a number elsewhere drifts unseen (the same code under two names, a
 * typo that compiles), so this scans the product's sources, the stand-in broker that plays Kafka in
 * fault tests and the integration tests that script it, for the ways a code gets redefined. Codec
 * and unit tests are left out: their literal codes are the bytes and answers they check, written
 * independently of the table on purpose.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode, KAFKA_ERRORS, kafkaError } from '../../src/broker/protocol/errors.js';

const ROOT = join(import.meta.dirname, '..', '..');
const TABLE_FILE = 'src/broker/protocol/errors.ts';
const THIS_FILE = relative(ROOT, import.meta.filename)
  .split('\\')
  .join('/');
const NAMES = new Set([...KAFKA_ERRORS.values()].map((e) => e.name));
const NUMBER = String.raw`-?\d+\b`;
const CODE_REF = String.raw`(?:\b\w*[eE]rror[cC]ode\b|\.code\b)`;

interface Rule {
  why: string;
  pattern: RegExp;
  /** Narrows a match further (e.g. only names of Kafka errors). */
  applies?: (match: RegExpMatchArray) => boolean;
}

const RULES: Rule[] = [
  {
    why: 'a constant named after a Kafka error',
    pattern: new RegExp(String.raw`\b(?:const|let|var)\s+([A-Z][A-Z0-9_]*)\s*(?::[^=;]+)?=\s*${NUMBER}`, 'g'),
    applies: (m) => NAMES.has(m[1] as string),
  },
  {
    why: 'an object member named after a Kafka error',
    pattern: new RegExp(String.raw`\b([A-Z][A-Z0-9_]*)\s*:\s*${NUMBER}`, 'g'),
    applies: (m) => NAMES.has(m[1] as string),
  },
  {
    why: 'an error code compared with a number',
    pattern: new RegExp(
      String.raw`${CODE_REF}\s*[!=]==?\s*${NUMBER}|${NUMBER}\s*[!=]==?\s*[\w.?]*${CODE_REF}`,
      'g',
    ),
  },
  {
    why: 'an error code set or defaulted to a number',
    pattern: new RegExp(String.raw`\b\w*[eE]rror[cC]ode\s*(?::|\?\?|=(?!=))\s*${NUMBER}`, 'g'),
  },
  {
    why: 'a number passed as a Kafka error code',
    pattern: new RegExp(
      String.raw`\bdescribeKafkaError\(\s*${NUMBER}|\bKafkaResponseError\(\s*[^,()]+,\s*[^,()]+,\s*${NUMBER}`,
      'g',
    ),
  },
];

/** Where `text` spells a Kafka error code as a number, one line per finding. */
function redefinitions(text: string): string[] {
  const found: string[] = [];
  for (const rule of RULES) {
    for (const match of text.matchAll(rule.pattern)) {
      if (rule.applies && !rule.applies(match)) continue;
      const line = text.slice(0, match.index).split('\n').length;
      found.push(`line ${line}: ${rule.why}: ${match[0].replace(/\s+/g, ' ')}`);
    }
  }
  return found;
}

/** `{ code: 69, name: 'GROUP_ID_NOT_FOUND' }` literals (examples, fixtures) whose pair the table contradicts. */
function mismatchedPairs(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\bcode:\s*(-?\d+),\s*name:\s*'([A-Z][A-Z0-9_]*)'/g)) {
    const named = kafkaError(Number(m[1])).name;
    if (named !== m[2]) found.push(`${m[0]}: the table names code ${m[1]} ${named}`);
  }
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) =>
      relative(ROOT, join(ROOT, dir, f))
        .split('\\')
        .join('/'),
    );
}

const scanned = [
  ...sources('src').filter((f) => f !== TABLE_FILE && !f.endsWith('.test.ts')),
  ...sources('test/support'),
  ...sources('test/integration'),
];

describe('Kafka error codes: one table', () => {
  it('names every code of the table, and only those', () => {
    expect(Object.keys(ErrorCode)).toHaveLength(KAFKA_ERRORS.size);
    for (const entry of KAFKA_ERRORS.values())
      expect(ErrorCode[entry.name as keyof typeof ErrorCode]).toBe(entry.code);
    // The names carry their codes as types: a wrong comparison does not compile.
    const notCoordinator: 16 = ErrorCode.NOT_COORDINATOR;
    expect(notCoordinator).toBe(16);
  });

  it('recognises each way of redefining a code, and not the table’s names', () => {
    const bad = [
      'const COORDINATOR_NOT_AVAILABLE = 15;',
      'export const NOT_COORDINATOR: number = 16;',
      'const codes = { GROUP_ID_NOT_FOUND: 69 } as const;',
      'if (response.errorCode !== 0) throw x;',
      'if (0 === group.errorCode) return;',
      'notFound = said.find((o) => o.kafkaError?.code === 69);',
      'errorCode: response.errorCode ?? 0,',
      'return { errorCode: -1, apiKeys: [] };',
      "describeKafkaError(5, 'leader moved')",
      "new KafkaResponseError(connection.label, 'OffsetFetch', -1, 'no answer')",
    ];
    for (const line of bad) expect(redefinitions(line), line).toHaveLength(1);
    const good = [
      'const NODE_ID = 1;',
      'const TAG_SUPPORTED_FEATURES = 0;',
      'if (response.errorCode !== ErrorCode.NONE) throw x;',
      'errorCode: number;',
      'errorCode: response.errorCode ?? ErrorCode.NONE,',
      "describeKafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER, 'leader moved')",
      "new KafkaResponseError(broker, 'OffsetFetch', ErrorCode.UNKNOWN_SERVER_ERROR, 'no answer')",
      'if (exit.signal === null) return;',
    ];
    for (const line of good) expect(redefinitions(line), line).toEqual([]);
    expect(mismatchedPairs("kafkaError: { code: 69, name: 'GROUP_ID_NOT_FOUND' }")).toEqual([]);
    expect(mismatchedPairs("kafkaError: { code: 16, name: 'COORDINATOR_NOT_AVAILABLE' }")).toHaveLength(1);
  });

  it('is the only place a code is spelled as a number, in the product and its broker tests', () => {
    // The scan must see the files that used to redefine codes, or it proves nothing.
    expect(scanned).toEqual(
      expect.arrayContaining([
        'src/groups/coordinators.ts',
        'src/groups/offsets/end-offsets.ts',
        'src/groups/describe/describer.ts',
        'src/broker/transport/connection.ts',
        'src/broker/protocol/messages/api-versions.ts',
        'test/support/stand-in-broker.ts',
        'test/integration/faults.test.ts',
      ]),
    );
    const findings = scanned.flatMap((file) =>
      redefinitions(readFileSync(join(ROOT, file), 'utf8')).map((f) => `${file} ${f}`),
    );
    expect(findings).toEqual([]);
  });

  it('agrees with every code/name pair written out in the sources (examples, fixtures)', () => {
    // This file's own counter-example is left out.
    const files = [...sources('src'), ...sources('test')].filter((f) => f !== TABLE_FILE && f !== THIS_FILE);
    const findings = files.flatMap((file) =>
      mismatchedPairs(readFileSync(join(ROOT, file), 'utf8')).map((f) => `${file} ${f}`),
    );
    expect(findings).toEqual([]);
  });
});
