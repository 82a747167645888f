/**
 * Content negotiation (RFC 9110 §12.5.1) for routes with more than one representation. Each
 * representation takes the quality of the most specific media range that matches it (exact type,
 * then `type/*`, then `*\/*`); `q=0` excludes it. The highest quality wins; at equal quality the
 * more specific range, then the range named first, then the route's own order (JSON first).
 * Nothing acceptable is a 406 problem naming what the route offers; problems themselves are always
 * application/problem+json. The Accept header is parsed by `negotiator` (the parser behind Express).
 */

import type { Context } from 'hono';
import Negotiator from 'negotiator';
import { problemResponse } from '../openapi/problems.js';

/**
 * Each representation is matched with its charset, so that a range naming one (`application/json;
 * charset=utf-8`) matches, and one naming another charset does not: JSON is UTF-8 (RFC 8259).
 */
const WITH_CHARSET = '; charset=utf-8';

/**
 * The representation to answer with, from `offers` in the route's order of preference, or
 * undefined when the caller accepts none of them. No Accept header (or an empty one) accepts
 * anything: the first offer.
 */
export function negotiate<T extends string>(accept: string | undefined, offers: readonly T[]): T | undefined {
  if (accept === undefined || accept.trim() === '') return offers[0];
  const provided = offers.map((type) => `${type}${WITH_CHARSET}`);
  const [best] = new Negotiator({ headers: { accept } }).mediaTypes(provided);
  return best === undefined ? undefined : offers[provided.indexOf(best)];
}

const ACCEPT_SHOWN_MAX = 200;

/** The 406 for a request whose Accept header takes none of `offers`. */
export function notAcceptable(c: Context, offers: readonly string[]): Response {
  const accept = c.req.header('accept') ?? '';
  const shown = accept.length > ACCEPT_SHOWN_MAX ? `${accept.slice(0, ACCEPT_SHOWN_MAX)}…` : accept;
  return problemResponse(
    c,
    'not-acceptable',
    `${c.req.method} ${c.req.path} answers ${offers.join(' or ')}; the Accept header '${shown}' takes none of them`,
    { offers: [...offers] },
    { vary: 'accept' },
  );
}
