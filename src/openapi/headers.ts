/**
 * The headers every answer may carry, in the generated document: the links (http/links.ts) on
 * every response, and the rate-limit quota (http/rate-limit-headers.ts) on every response of the
 * operations a rate limit applies to. Declared once under `components.headers`, referenced from
 * each response.
 */

/** Draft-06 of the IETF HTTPAPI draft's names of the caller's quota, deprecated (http/rate-limit-headers.ts). */
export const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const;

/** The one policy a caller has, named in draft-11's fields. */
export const RATE_LIMIT_POLICY = 'default';

/** Operations no rate limit applies to: the probes. */
const UNLIMITED = new Set(['/healthz', '/readyz']);

type Response = { headers?: Record<string, unknown> };
type Document = {
  paths?: Record<string, Record<string, { responses?: Record<string, Response> }>>;
  components?: Record<string, Record<string, unknown>>;
};

const quota = (description: string) => ({
  description: `${description}. Present when rate limiting is on (RATE_LIMIT_PER_MINUTE) and counted by this server.`,
  schema: { type: 'integer', format: 'int32', minimum: 0 },
});

const deprecated = (header: ReturnType<typeof quota>) => ({
  ...header,
  description: `${header.description} Draft-06's name, deprecated: use RateLimit-Policy and RateLimit; gone in API 1.3.`,
  deprecated: true,
});

const HEADERS: Record<string, unknown> = {
  Link: {
    description:
      'RFC 8288 links: `</openapi.json>; rel="service-desc"` (RFC 8631) on every answer, and on a page with more ' +
      'after it `<groups?…&cursor=…>; rel="next"`, relative to the request URL, the other query parameters kept',
    schema: { type: 'string' },
    example:
      '<groups?limit=100&cursor=ZzE6ZGVtby1jb25zdW1lcg>; rel="next", </openapi.json>; rel="service-desc"',
  },
  'RateLimit-Policy': {
    description:
      "The caller's quota policy (draft-ietf-httpapi-ratelimit-headers-11, a structured field): `q` requests in " +
      'a burst, refilled in `w` seconds. Present when rate limiting is on (RATE_LIMIT_PER_MINUTE) and counted by this server.',
    schema: { type: 'string' },
    example: '"default";q=60;w=60',
  },
  RateLimit: {
    description:
      "What is left of the caller's quota (draft-ietf-httpapi-ratelimit-headers-11, a structured field): `r` " +
      'requests left of the burst, whole again in `t` seconds. Present when rate limiting is on; on Workers with ' +
      "the platform's binding, only on a 429.",
    schema: { type: 'string' },
    example: '"default";r=59;t=1',
  },
  'RateLimit-Limit': deprecated(quota('Requests the caller may send in a burst')),
  'RateLimit-Remaining': deprecated(quota('Requests left of that burst')),
  'RateLimit-Reset': deprecated(quota('Seconds until the burst is whole again')),
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

export function addResponseHeaders<T extends object>(document: T): T {
  const doc = document as Document;
  doc.components ??= {};
  doc.components.headers = { ...doc.components.headers, ...HEADERS };
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const response of Object.values(operation.responses ?? {})) {
        response.headers = {
          ...response.headers,
          Link: ref('Link'),
          ...(!UNLIMITED.has(path) &&
            Object.fromEntries(
              ['RateLimit-Policy', 'RateLimit', ...RATE_LIMIT_HEADERS].map((name) => [name, ref(name)]),
            )),
        };
      }
    }
  }
  return document;
}
