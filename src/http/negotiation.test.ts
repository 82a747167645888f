import { describe, expect, it } from 'vitest';
import { negotiate } from './negotiation.js';

const OFFERS = ['application/json', 'application/x-ndjson'] as const;

describe('negotiate (RFC 9110 §12.5.1)', () => {
  it.each([
    // No preference: the route's first representation.
    [undefined, 'application/json'],
    ['', 'application/json'],
    ['*/*', 'application/json'],
    ['application/*', 'application/json'],
    // What OpenAPI Generator's Java client sent for a 200 with both types: a tie, JSON wins.
    ['application/json, application/x-ndjson, application/problem+json', 'application/json'],
    ['application/json, application/x-ndjson', 'application/json'],
    ['application/json, application/x-ndjson;q=0', 'application/json'],
    // The order of the header carries no weight (RFC 9110): a tie is JSON's, whatever comes first.
    ['application/x-ndjson, application/json', 'application/json'],
    ['application/x-ndjson, */*', 'application/json'],
    ['application/x-ndjson, */*;q=0.8', 'application/x-ndjson'],
    ['application/x-ndjson', 'application/x-ndjson'],
    ['application/x-ndjson;q=0.9, application/json;q=0.5', 'application/x-ndjson'],
    ['application/json;q=0.5, application/x-ndjson', 'application/x-ndjson'],
    // The most specific range sets a type's quality: */* covers ndjson, json is excluded by name.
    ['*/*, application/json;q=0', 'application/x-ndjson'],
    ['application/*;q=0.2, application/x-ndjson', 'application/x-ndjson'],
    ['application/*, application/json;q=0.1', 'application/x-ndjson'],
    ['text/*, application/x-ndjson;q=0.3', 'application/x-ndjson'],
    ['APPLICATION/JSON', 'application/json'],
    ['application/json; charset=utf-8', 'application/json'],
    ['application/json;q=1.5, application/x-ndjson;q=0.5', 'application/x-ndjson'],
    ['application/json; q="0.5"; foo=bar, application/x-ndjson;q=0.4', 'application/json'],
    ['application/json;charset="UTF-8"', 'application/json'],
    // JSON Lines' name for NDJSON (OpenAPI 3.2's application/jsonl).
    ['application/jsonl', 'application/x-ndjson'],
    ['application/jsonl;q=0.9, application/json;q=0.5', 'application/x-ndjson'],
    ['application/jsonl, application/json', 'application/json'],
    ['*/*, application/jsonl;q=0, application/json;q=0.1', 'application/json'],
  ])('Accept %j → %s', (accept, expected) => {
    expect(negotiate(accept, OFFERS)).toBe(expected);
  });

  it.each([
    'text/html',
    'application/problem+json',
    'application/x-ndjson;q=0, application/json;q=0',
    '*/*;q=0',
    'application/*;q=0',
    'application/json; charset=iso-8859-1',
    'not a media type',
    ';;;,,,',
    'application/json;q=1.5',
    'text/jsonl',
  ])('Accept %j takes nothing the route offers', (accept) => {
    expect(negotiate(accept, OFFERS)).toBeUndefined();
  });

  it('reads no further than the first 64 ranges of a long header', () => {
    expect(negotiate(`${'text/html, '.repeat(1000)}application/json`, OFFERS)).toBeUndefined();
    expect(negotiate(`${'text/html, '.repeat(10)}application/json`, OFFERS)).toBe('application/json');
  });
});
