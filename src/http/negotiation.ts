/**
 * Content negotiation (RFC 9110 §12.5.1) for routes with more than one representation. Each
 * representation takes the quality of the most specific media range that matches it (exact type
 * with parameters, exact type, then `type/*`, then `*\/*`); `q=0` excludes it. The highest quality
 * wins, and a tie goes to the route's own order (JSON first): the order of ranges in the header
 * carries no weight in RFC 9110, and a generated client lists every type its document names.
 * Nothing acceptable is a 406 problem naming what the route offers; problems themselves are always
 * application/problem+json.
 *
 * Written here rather than taken from `negotiator` (Express's parser): that one breaks ties by the
 * order of the header, which would answer NDJSON to a client that lists it first beside JSON.
 */

import type { Context } from 'hono';
import { RouteProblem } from './route-problem.js';

interface MediaRange {
  type: string;
  subtype: string;
  /** Parameters other than q, names lower-cased. */
  params: Map<string, string>;
  q: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
/** A qvalue: 0 to 1 with at most three decimals (RFC 9110 §12.4.2). */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
/** A header longer than this is not read past it: nothing legitimate needs more. */
const ACCEPT_READ_MAX = 4096;
const RANGES_MAX = 64;

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"')
    ? value.slice(1, -1).replace(/\\(.)/g, '$1')
    : value;
}

/** The ranges of an Accept header; a malformed range is left out, as if not sent. */
export function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.slice(0, ACCEPT_READ_MAX).split(',').slice(0, RANGES_MAX)) {
    const [media = '', ...rest] = part.split(';').map((s) => s.trim());
    const [type = '', subtype = '', extra] = media.toLowerCase().split('/');
    if (extra !== undefined || !TOKEN.test(type) || !TOKEN.test(subtype)) continue;
    if (type === '*' && subtype !== '*') continue;
    let q = 1;
    let valid = true;
    const params = new Map<string, string>();
    for (const param of rest) {
      if (param === '') continue;
      const eq = param.indexOf('=');
      const name = (eq < 0 ? param : param.slice(0, eq)).trim().toLowerCase();
      const value = eq < 0 ? '' : unquote(param.slice(eq + 1).trim());
      if (name === 'q') {
        // A qvalue out of grammar: the range says nothing reliable, so it is not taken.
        if (!QVALUE.test(value)) valid = false;
        else q = Number(value);
        // Parameters after q are accept-extensions, not media type parameters.
        break;
      }
      params.set(name, value.toLowerCase());
    }
    if (valid) ranges.push({ type, subtype, params, q });
  }
  return ranges;
}

/**
 * How specific `range` is for the media type `offer` (with its parameters), or -1 when it does not
 * match: `*\/*` 0, `type/*` 1, the exact type 2 plus one per parameter it names (each must agree).
 */
function specificity(range: MediaRange, type: string, subtype: string, params: Map<string, string>): number {
  if (range.type === '*') return 0;
  if (range.type !== type) return -1;
  if (range.subtype === '*') return 1;
  if (range.subtype !== subtype) return -1;
  for (const [name, value] of range.params) if (params.get(name) !== value) return -1;
  return 2 + range.params.size;
}

/** Each representation is UTF-8 JSON (RFC 8259): a range naming another charset does not match it. */
const OFFER_PARAMS = new Map([['charset', 'utf-8']]);

/**
 * Other names of an offer: NDJSON is also JSON Lines' `application/jsonl` (the name OpenAPI 3.2
 * gives it). The answer keeps the offer's own name.
 */
const ALSO_NAMED: ReadonlyMap<string, readonly string[]> = new Map([['x-ndjson', ['jsonl']]]);

/** The quality the caller gives `offer`: that of the most specific matching range, 0 when none. */
function quality(ranges: readonly MediaRange[], offer: string): number {
  const [type = '', subtype = ''] = offer.split('/');
  const names = [subtype, ...(type === 'application' ? (ALSO_NAMED.get(subtype) ?? []) : [])];
  let best = -1;
  let q = 0;
  for (const range of ranges) {
    const s = Math.max(...names.map((name) => specificity(range, type, name, OFFER_PARAMS)));
    if (s > best || (s === best && range.q > q)) {
      best = s;
      q = range.q;
    }
  }
  return best < 0 ? 0 : q;
}

/**
 * The representation to answer with, from `offers` in the route's order of preference, or
 * undefined when the caller accepts none of them. No Accept header (or an empty one) accepts
 * anything: the first offer.
 */
export function negotiate<T extends string>(accept: string | undefined, offers: readonly T[]): T | undefined {
  if (accept === undefined || accept.trim() === '') return offers[0];
  const ranges = parseAccept(accept);
  let chosen: T | undefined;
  let chosenQ = 0;
  for (const offer of offers) {
    const q = quality(ranges, offer);
    if (q > chosenQ) {
      chosen = offer;
      chosenQ = q;
    }
  }
  return chosen;
}

const ACCEPT_SHOWN_MAX = 200;

/** The 406 for a request whose Accept header takes none of `offers`. */
export function notAcceptable(c: Context, offers: readonly string[]): never {
  const accept = c.req.header('accept') ?? '';
  const shown = accept.length > ACCEPT_SHOWN_MAX ? `${accept.slice(0, ACCEPT_SHOWN_MAX)}…` : accept;
  throw new RouteProblem(
    'not-acceptable',
    `${c.req.method} ${c.req.path} answers ${offers.join(' or ')}; the Accept header '${shown}' takes none of them`,
    { offers: [...offers] },
    { vary: 'accept' },
  );
}
