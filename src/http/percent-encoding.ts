/**
 * A path segment or query value whose percent-encoding is not UTF-8 (`%ff`, `%c0%80`) is a 400
 * naming it. The router keeps such a segment as it came, so `/groups/%ff` would otherwise be asked
 * about the group named `%ff` (whose URL is `/groups/%25ff`): no id Kafka holds is spelled with
 * bytes that are not UTF-8, so the request is answered as what it is, not as another group's.
 */

import type { MiddlewareHandler } from 'hono';
import { problemResponse } from '../openapi/problem-answers.js';
import { shorten } from '../openapi/validation.js';

const EXPECTED = 'percent-encoded UTF-8 (a literal % is %25)';

function decodes(text: string): boolean {
  if (!text.includes('%')) return true;
  try {
    decodeURIComponent(text.replaceAll('+', ' '));
    return true;
  } catch {
    return false;
  }
}

/** The name of the route parameter at segment `index` of `segments`, from the routes' paths. */
function parameterAt(
  paths: readonly string[],
  segments: readonly string[],
  index: number,
): string | undefined {
  for (const path of paths) {
    const parts = path.split('/');
    if (parts.length !== segments.length) continue;
    const name = parts[index];
    if (!name?.startsWith(':')) continue;
    if (parts.every((p, i) => i === index || p.startsWith(':') || p === segments[i])) {
      return name.slice(1).replace(/\{.*$/, '');
    }
  }
  return undefined;
}

export function refuseUndecodable(routePaths: () => readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    // Without a '%' as sent, every escape in the parsed URL is one the parser made, and decodes:
    // most requests pay for no URL parse here.
    const raw = c.req.url;
    if (!raw.includes('%')) return next();
    const url = new URL(raw);
    if (!url.pathname.includes('%') && !url.search.includes('%')) return next();
    const segments = url.pathname.split('/');
    const bad = segments.findIndex((s) => !decodes(s));
    if (bad >= 0) {
      const name = parameterAt(routePaths(), segments, bad) ?? `path segment ${bad}`;
      const received = shorten(segments[bad] as string);
      return problemResponse(c, 'invalid-input', `path parameter '${name}' expected ${EXPECTED}`, {
        errors: [
          {
            in: 'path',
            name,
            expected: EXPECTED,
            received,
            message: `path parameter '${name}' expected ${EXPECTED}, received '${received}'`,
          },
        ],
      });
    }
    for (const pair of url.search.slice(1).split('&')) {
      const [key = '', value = ''] = pair.split(/=(.*)/s);
      if (decodes(key) && decodes(value)) continue;
      const name = shorten(decodes(key) ? decodeURIComponent(key.replaceAll('+', ' ')) : key);
      const received = shorten(value);
      return problemResponse(c, 'invalid-input', `query parameter '${name}' expected ${EXPECTED}`, {
        errors: [
          {
            in: 'query',
            name,
            expected: EXPECTED,
            received,
            message: `query parameter '${name}' expected ${EXPECTED}, received '${received}'`,
          },
        ],
      });
    }
    return next();
  };
}
