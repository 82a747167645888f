/**
 * Access control and request limits in the OpenAPI document: the bearer scheme, the security
 * requirement of every operation but the probes, and on every operation the problems the guards
 * in front of the routes can answer (421, 401, 403, 429, 504; 413 and 415 where a body is taken).
 * Added to the generated document in one place, since the guards apply to all routes alike.
 */

import { type ProblemSlug, problemResponses } from './problems.js';

export const SECURITY_SCHEME = 'bearerAuth';
const OPEN_OPERATIONS = new Set(['/healthz', '/readyz']);

type Responses = Record<
  string,
  { description: string; content?: Record<string, { examples?: object; schema?: unknown }> }
>;
type Operation = { responses?: Responses; requestBody?: unknown; security?: unknown[] };
type Document = {
  paths?: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
  security?: unknown[];
};

/** problemResponses() for a generated document: the Problem schema by reference, not as zod. */
function documented(slugs: ProblemSlug[]): [string, Responses[string]][] {
  return Object.entries(problemResponses(...slugs)).map(([status, response]) => [
    status,
    {
      ...response,
      content: Object.fromEntries(
        Object.entries(response.content).map(([type, media]) => [
          type,
          { ...(media as object), schema: { $ref: '#/components/schemas/Problem' } },
        ]),
      ),
    },
  ]);
}

function addProblems(operation: Operation, slugs: ProblemSlug[]): void {
  operation.responses ??= {};
  const responses = operation.responses;
  for (const [status, added] of documented(slugs)) {
    const existing = responses[status];
    if (!existing) {
      responses[status] = added;
      continue;
    }
    // Same status as a problem the route already lists (504): one response, both examples.
    existing.description = `${existing.description}; ${added.description}`;
    for (const [type, media] of Object.entries(added.content ?? {})) {
      const target = existing.content?.[type];
      if (target) target.examples = { ...target.examples, ...media.examples };
    }
  }
}

/** Whether every success the operation documents is application/json (route-policy's 406 rule). */
function answersJsonAlone(operation: Operation): boolean {
  const types = Object.entries(operation.responses ?? {})
    .filter(([status]) => status.startsWith('2'))
    .flatMap(([, response]) => Object.keys(response.content ?? {}));
  return types.length > 0 && types.every((type) => type === 'application/json');
}

export function addSecurity<T extends object>(document: T): T {
  const doc = document as Document;
  doc.components ??= {};
  doc.components.securitySchemes = {
    ...doc.components.securitySchemes,
    [SECURITY_SCHEME]: {
      type: 'http',
      scheme: 'bearer',
      description:
        'An API key (its SHA-256 is in AUTH_API_KEYS) or a JWT signed by a key of AUTH_JWKS_URL. ' +
        'A server started with AUTH=none takes requests without credentials.',
    },
  };
  doc.components.responses = {
    ...doc.components.responses,
    ...Object.fromEntries(
      (['method-not-allowed', 'headers-too-large', 'malformed-request', 'client-timeout'] as const).map(
        (slug) => {
          const [entry] = documented([slug]);
          return [slug, entry?.[1]];
        },
      ),
    ),
  };
  doc.security = [{ [SECURITY_SCHEME]: [] }];
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      // Every operation: a host not served is refused before anything else (ALLOWED_HOSTS).
      addProblems(operation, ['host-not-allowed']);
      if (path === '/mcp') addProblems(operation, ['origin-not-allowed']);
      if (OPEN_OPERATIONS.has(path)) {
        operation.security = [];
        addProblems(operation, ['request-timeout']);
        continue;
      }
      addProblems(operation, [
        'unauthorized',
        'auth-unavailable',
        'forbidden',
        'rate-limited',
        'request-timeout',
      ]);
      if (operation.requestBody)
        addProblems(operation, ['payload-too-large', 'unsupported-media-type', 'client-timeout']);
      if (answersJsonAlone(operation) && !operation.responses?.['406'])
        addProblems(operation, ['not-acceptable']);
    }
  }
  return document;
}
