/**
 * What every request passes before a route sees it: the host it is for (and /mcp's Origin), CORS,
 * the request deadline, authentication and rate limiting, the grant action of the route, and the
 * body's type and size. Each refusal is a problem+json answer of its own type.
 */

import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { Authenticator, Principal } from '../auth/authenticate.js';
import { isWriteAction, Permissions } from '../auth/grants.js';
import { type CallOptions, Deadline } from '../broker/deadline.js';
import type { HttpLimits, WritesSetting } from '../config.js';
import type { Logger } from '../logger.js';
import { addResponseHeaders } from '../openapi/headers.js';
import { problemResponse } from '../openapi/problem-answers.js';
import type { TokenCluster } from '../tokens/cluster-binding.js';
import { hostGuard, originGuard } from './hosts.js';
import type { RateLimiter } from './rate-limit.js';
import { matchedPolicy } from './route-policy.js';
import { DOCUMENT_PATHS, isDocsPath, OPENAPI_32_PATH, RouteTable } from './route-table.js';

declare module 'hono' {
  interface ContextVariableMap {
    principal: Principal;
    /** The alias of the cluster the request is served by (set by the guard). */
    clusterAlias: string;
    /** The request's deadline (REQUEST_TIMEOUT_MS from its arrival): what a route passes down (`deadlineOf`). */
    deadline: Deadline;
    /** The deadline of a streamed answer to this request (STREAM_TIMEOUT_MS from its arrival), made on demand. */
    streamDeadline: () => Deadline;
    /** Its body is still on its way: a deadline passed meanwhile is the client's (408), not ours. */
    bodyPending: boolean;
  }
}

export interface Security {
  authenticator: Authenticator;
  limits: HttpLimits;
  /** Undefined when rate limiting is off. */
  rateLimiter?: RateLimiter;
  /** The open paths' own bucket per client address; undefined when off. */
  openRateLimiter?: RateLimiter;
  /** The client's address, the rate limiter's key when nobody is authenticated. */
  clientAddress?: (c: Context) => string | undefined;
  /** WRITES; undefined counts as `unset` (with AUTH=none: no writes). */
  writes?: WritesSetting;
}

const REALM = 'kafka-groups-rest';
/** jose asks the issuer again on the next token after a failed read: a short wait is enough. */
const AUTH_RETRY_AFTER_SECONDS = 5;
const NO_PERMISSIONS = new Permissions([]);

/** The caller's permissions; none when no principal was set (a request that skipped the guard). */
export function permissionsOf(c: Context): Permissions {
  return c.get('principal')?.permissions ?? NO_PERMISSIONS;
}

/** The cluster a request is served by, for the tokens it makes or takes (tokens/cluster-binding.ts). */
export async function tokenClusterOf(
  c: Context,
  service: { describeCluster(options: CallOptions): Promise<{ clusterId: string | null }> },
): Promise<TokenCluster> {
  const { clusterId } = await service.describeCluster(deadlineOf(c));
  return { alias: c.get('clusterAlias') ?? 'default', id: clusterId ?? '' };
}

/** Whether the caller is the anonymous one of AUTH=none (answers keep Kafka's own details). */
export function isAnonymous(c: Context): boolean {
  return c.get('principal')?.id === 'anonymous';
}

/**
 * The request's one deadline (REQUEST_TIMEOUT_MS), made here and handed down by the route as an
 * argument (`deadlineOf`): every broker call made while serving the request takes its budget from
 * it (broker/deadline.ts), so the route answers with what it could read before the deadline.
 * Should the route still be busy at the deadline, the answer is a 504 and the calls under it are
 * abandoned.
 */
function deadline(ms: number, streamMs = ms): MiddlewareHandler {
  return async (c, next) => {
    const arrivedAt = Date.now();
    const requestDeadline = Deadline.after(ms);
    c.set('deadline', requestDeadline);
    c.set('streamDeadline', () =>
      Deadline.after(Math.max(ms, streamMs) - (Date.now() - arrivedAt), Date.now, { oncePerBroker: true }),
    );
    // The deadline's own timer says when it passed: no second timer per request, and none left
    // behind once the route has answered.
    const outcome = await new Promise<'done' | 'expired'>((resolve, reject) => {
      const cancel = requestDeadline.whenPassed(() => resolve('expired'));
      next().then(
        () => {
          cancel();
          resolve('done');
        },
        (error: unknown) => {
          cancel();
          reject(error);
        },
      );
    });
    if (outcome === 'expired') {
      if (c.get('bodyPending'))
        return problemResponse(c, 'client-timeout', `the request body did not arrive within ${ms} ms`);
      // Whatever the route still waits for is abandoned (the deadline aborted); its answer is dropped.
      return problemResponse(
        c,
        'request-timeout',
        `the request did not complete within its ${ms} ms deadline`,
      );
    }
  };
}

/**
 * The request's deadline as the options of what the route asks of the service, which hands it to
 * every broker call under it. None without the deadline guard (a route run on its own in a test).
 */
export function deadlineOf(c: Context): CallOptions {
  return { deadline: c.get('deadline') };
}

/**
 * The deadline of the streamed answer a route is about to send: its reads come after the route
 * has answered (batch by batch, as the client reads), outside the request's deadline, so they run
 * under this one. Without the deadline middleware (a route run on its own), the request's time.
 */
export function streamDeadlineOf(c: Context, fallbackMs = 30_000): Deadline {
  return c.get('streamDeadline')?.() ?? Deadline.after(fallbackMs, Date.now, { oncePerBroker: true });
}

/** The clusters behind the app: the aliases `/clusters/{alias}` takes and the one the short routes serve. */
export interface ClusterScope {
  aliases: readonly string[];
  defaultAlias: string;
}

function rateLimited(c: Context, who: string, retryAfterSeconds: number): Response {
  return problemResponse(
    c,
    'rate-limited',
    `too many requests from ${who}; retry after ${retryAfterSeconds} s`,
    {},
    { 'retry-after': String(retryAfterSeconds) },
  );
}

const CLUSTER_PATH = /^\/clusters\/([^/]+)(?:\/|$)/;

/**
 * An open route answers everyone, and tells more to a caller it knows: anyone under AUTH=none, or
 * one whose credentials hold (its full permissions; the route scopes them). Credentials refused or
 * not checkable make an unknown caller, not a 401: a probe's status must not hang on a token.
 */
async function identify(c: Context, authenticator: Authenticator): Promise<void> {
  const authorization = c.req.header('authorization');
  if (authenticator.enforced && authorization === undefined) return;
  const outcome = await authenticator.authenticate(authorization);
  if (outcome.ok) c.set('principal', outcome.principal);
}

function guard(security: Security, logger: Logger, clusters: ClusterScope): MiddlewareHandler {
  const { authenticator, rateLimiter } = security;
  return async (c, next) => {
    // The decoded path, as Hono routed it: the rules below hold for every spelling of a route.
    const path = c.req.path;
    const matched = matchedPolicy(c);
    if (
      (matched.kind === 'route' && matched.policy.open) ||
      (isDocsPath(path) && !authenticator.privateDocs)
    ) {
      const decision = await security.openRateLimiter?.take(
        `address:${security.clientAddress?.(c) ?? 'unknown'}`,
      );
      if (decision && !decision.allowed) return rateLimited(c, 'this address', decision.retryAfterSeconds);
      if (matched.kind === 'route' && matched.policy.open) await identify(c, authenticator);
      return next();
    }

    const outcome = await authenticator.authenticate(c.req.header('authorization'));
    const principal = outcome.ok ? outcome.principal : undefined;
    if (rateLimiter) {
      const key =
        principal && principal.id !== 'anonymous'
          ? principal.id
          : `address:${security.clientAddress?.(c) ?? 'unknown'}`;
      const decision = await rateLimiter.take(key);
      if (decision.quota) c.set('rateQuota', decision.quota);
      if (!decision.allowed) {
        const who = principal && principal.id !== 'anonymous' ? principal.id : 'this address';
        return rateLimited(c, who, decision.retryAfterSeconds);
      }
    }
    if (!outcome.ok && 'unavailable' in outcome) {
      logger.warn('credentials not checked: the issuer key set is unreachable', {
        path,
        reason: outcome.reason,
      });
      return problemResponse(
        c,
        'auth-unavailable',
        `the credentials cannot be checked now: ${outcome.reason}`,
        {},
        { 'retry-after': String(AUTH_RETRY_AFTER_SECONDS) },
      );
    }
    if (!outcome.ok) {
      logger.debug('request refused: credentials', { path, reason: outcome.reason });
      const challenge = outcome.invalidToken
        ? `Bearer realm="${REALM}", error="invalid_token", error_description="${outcome.reason.replace(/"/g, "'")}"`
        : `Bearer realm="${REALM}"`;
      return problemResponse(c, 'unauthorized', outcome.reason, {}, { 'www-authenticate': challenge });
    }
    c.set('principal', outcome.principal);

    if (isDocsPath(path)) return next();
    // A request inside one cluster is judged by the grants covering that cluster only; an alias
    // unknown, or outside every grant, is answered alike, naming the aliases the caller may use.
    if (path !== '/clusters') {
      const scoped = CLUSTER_PATH.exec(path)?.[1];
      const alias = scoped ?? clusters.defaultAlias;
      const { permissions } = outcome.principal;
      if (scoped !== undefined && !(clusters.aliases.includes(alias) && permissions.seesCluster(alias))) {
        const visible = clusters.aliases.filter((a) => permissions.seesCluster(a));
        return problemResponse(
          c,
          'cluster-not-found',
          `no cluster '${alias.slice(0, 100)}' here; the clusters you may use: ${visible.join(', ') || 'none'}`,
          { clusters: visible },
        );
      }
      c.set('principal', { ...outcome.principal, permissions: permissions.forCluster(alias) });
      c.set('clusterAlias', alias);
    }
    // No route: the 404 or 405 that follows says so, to an authenticated caller only.
    if (matched.kind === 'none') return next();
    if (matched.kind === 'unlisted' || matched.policy.open) {
      return problemResponse(c, 'forbidden', `${c.req.method} ${path} is not open to any grant`);
    }
    const { action } = matched.policy;
    // A write's grant is checked by its route, once the group's id and type are known: a group the
    // caller cannot see answers 404 there, not 403 here (http/write-guard.ts).
    if (!isWriteAction(action) && !permissionsOf(c).hasAction(action)) {
      return problemResponse(
        c,
        'forbidden',
        `${outcome.principal.id} has no grant with the action '${action}'`,
      );
    }
    return next();
  };
}

/** Whether the request carries a body: a length above zero, or one sent in chunks. */
function hasBody(c: Context): boolean {
  const length = c.req.header('content-length');
  if (length !== undefined) return length.trim() !== '0';
  if (c.req.header('transfer-encoding') !== undefined) return true;
  // A GET or HEAD never has a body in a fetch Request; asking for it would make the Node adapter
  // build the whole Request (headers, signal, stream) that its light stand-in saves.
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD') return false;
  // The Node adapter gives every other method a body stream, sent or not; over HTTP/1.1 a request
  // with neither a length nor chunks has no body (RFC 9112 §6.3), and is owed its 404 or 405.
  if ((c.env as { incoming?: unknown } | undefined)?.incoming !== undefined) return false;
  return c.req.raw.body !== null;
}

/**
 * The body cap holds for every request that carries a body, whatever its path and whether a
 * route serves it; the JSON rule for every route that takes a body, and for a body sent where no
 * route is (it reaches nothing that could read another type).
 */
function body(limits: HttpLimits): MiddlewareHandler {
  // No Connection: close here: closing a socket with unread bytes resets it, and the client may
  // lose the answer. The Node server discards the rest for a moment, then closes (see node.ts).
  const tooLarge = (c: Context) =>
    problemResponse(
      c,
      'payload-too-large',
      `the request body is larger than ${limits.maxBodyBytes} bytes, the most this server accepts`,
    );
  const capped = bodyLimit({ maxSize: limits.maxBodyBytes, onError: tooLarge });
  return async (c, next) => {
    const matched = matchedPolicy(c);
    const takesJson = matched.kind === 'route' && !matched.policy.open && matched.policy.body === 'json';
    const carries = hasBody(c);
    if (!takesJson && !carries) return next();
    const declared = c.req.header('content-length');
    if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limits.maxBodyBytes) {
      return tooLarge(c);
    }
    const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const json = type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
    if ((takesJson || (carries && matched.kind !== 'route')) && !json) {
      return problemResponse(
        c,
        'unsupported-media-type',
        `the request body must be application/json, received ${type === '' ? 'no content type' : `'${type.slice(0, 100)}'`}`,
        {},
        { accept: 'application/json' },
      );
    }
    // Read in full before the route runs, so a body that stops coming is known for one (408).
    c.set('bodyPending', carries);
    return capped(c, async () => {
      if (!carries) return next();
      // As text: the route's c.req.json() parses this cached text, no second copy of the bytes.
      const read = await c.req.text().then(
        () => true,
        () => false,
      );
      // A body that came after the deadline was answered 408 already: the route must not act on it.
      if (c.get('deadline')?.expired()) {
        c.res = problemResponse(c, 'client-timeout', 'the request body did not arrive in time');
        return;
      }
      c.set('bodyPending', false);
      if (!read) {
        c.res = problemResponse(c, 'malformed-request', 'the request body could not be read to its end');
        return;
      }
      await next();
    });
  };
}

/** Installs every guard on `app`; call before registering routes. */
export function installGuards(
  app: Hono,
  security: Security,
  logger: Logger,
  clusters: ClusterScope = { aliases: ['default'], defaultAlias: 'default' },
): RouteTable {
  const routes = new RouteTable(() => app.routes);
  // First: a request for a host not served is answered before anything reads it.
  const hosts = security.limits.hosts ?? { any: true };
  if (!hosts.any) app.use('*', hostGuard(hosts));
  app.use('/mcp', originGuard(hosts, security.limits.corsOrigins));
  if (security.limits.corsOrigins.length > 0) {
    const origins = security.limits.corsOrigins;
    app.use(
      '*',
      cors({
        origin: origins.includes('*') ? '*' : origins,
        allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
        allowHeaders: ['authorization', 'content-type'],
        exposeHeaders: [
          'retry-after',
          'www-authenticate',
          'link',
          'ratelimit-policy',
          'ratelimit',
          'ratelimit-limit',
          'ratelimit-remaining',
          'ratelimit-reset',
        ],
        maxAge: 600,
      }),
    );
  }
  app.use('*', deadline(security.limits.requestTimeoutMs, security.limits.streamTimeoutMs));
  // The generated document gets the scheme and the guards' problems on its way out, once; its
  // 3.2 view is made from that finished document, so the two describe the same operations.
  const documents = new Map<string, string>();
  const finishDocument: MiddlewareHandler = async (c, next) => {
    await next();
    if (c.res.status !== 200) return;
    let document = documents.get(c.req.path);
    if (document === undefined) {
      // Loaded with the document's first request: a start needs neither it nor the problems' schema.
      const { addSecurity } = await import('../openapi/security.js');
      const finished = addResponseHeaders(addSecurity((await c.res.json()) as object)) as Record<
        string,
        unknown
      >;
      if (c.req.path === OPENAPI_32_PATH) {
        const { toOpenApi32 } = await import('../openapi/openapi-32.js');
        document = JSON.stringify(toOpenApi32(finished));
      } else document = JSON.stringify(finished);
      documents.set(c.req.path, document);
    }
    c.res = new Response(document, { status: 200, headers: { 'content-type': 'application/json' } });
  };
  for (const path of DOCUMENT_PATHS) app.use(path, finishDocument);
  app.use('*', guard(security, logger, clusters));
  app.use('*', body(security.limits));
  return routes;
}

/** The 405 for a known path and a method it does not take, or undefined for an unknown path. */
export function methodNotAllowed(c: Context, routes: RouteTable): Response | undefined {
  const allowed = routes.allowed(c.req.path);
  // A route of this method answered "not found" itself (an unknown docs asset): a 404 it is.
  if (allowed.length === 0 || allowed.includes(c.req.method.toUpperCase())) return undefined;
  return problemResponse(
    c,
    'method-not-allowed',
    `${c.req.method} is not allowed on ${c.req.path}; allowed: ${allowed.join(', ')}`,
    {},
    { allow: allowed.join(', ') },
  );
}
