/**
 * The Node server: configuration from process.env, kafkajs's own TCP/TLS sockets, Swagger UI's
 * assets served locally, and a graceful stop on SIGTERM/SIGINT.
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, join } from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createApp } from '../app.js';
import { awsMskIamSigner } from '../broker/transport/sasl/aws-msk-iam.js';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { securityFrom } from '../http/security.js';
import { createLogger, type Logger } from '../logger.js';
import { PROBLEM_CONTENT_TYPE, type ProblemSlug, problemBody } from '../openapi/problems.js';
import { tokenSigner } from '../tokens/signed.js';
import { clustersOf, createService } from '../wiring.js';
import { answerHalfClosed } from './half-close.js';
import { type ManagementListener, splitFetch, startManagementListener } from './management.js';
import { endStreamsWithClient } from './stream-client-end.js';

/** Keyed by the request's path segment: a Map, so `__proto__` or `constructor` is just not there. */
const DOCS_ASSETS = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
]);
// Group ids may be 32,767 UTF-8 bytes, three times that percent-encoded: Node's 16 KiB default
// would refuse the longest ones with a bare 431 before the API can say anything.
const MAX_HEADER_BYTES = 256 * 1024;
const SHUTDOWN_GRACE_MS = 10_000;
/**
 * After a 413 the rest of the body is read and thrown away (no memory), for at most this long,
 * so the client can read the answer; then the connection is cut, so a 1 GB body does not keep it.
 */
const REFUSED_BODY_LINGER_MS = 5_000;

/**
 * What Node's HTTP parser refuses before the app sees a request (headers or URI too large, bytes
 * that are not HTTP, a request not received in time) answered as problem+json, not as Node's
 * bare status line. The connection is closed after: its framing cannot be trusted.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex, maxHeaderBytes: number): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  let slug: ProblemSlug = 'malformed-request';
  let detail = `the HTTP request cannot be parsed (${error.code ?? 'unknown'})`;
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    slug = 'headers-too-large';
    detail = `the request line and headers are larger than ${maxHeaderBytes} bytes, the most this server reads`;
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    slug = 'client-timeout';
    detail = 'the request was not received completely in time';
  }
  const body = JSON.stringify(problemBody(slug, detail));
  const status = problemBody(slug, detail).status;
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[
    status as 400 | 408 | 431
  ];
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: ${PROBLEM_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Closes `socket` as a lingering close: the answer is ended (FIN) at once, what the client still
 * sends is read and discarded, and the socket is destroyed when the client is done or after
 * REFUSED_BODY_LINGER_MS, whichever comes first.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    socket.resume();
    setTimeout(() => socket.destroy(), REFUSED_BODY_LINGER_MS).unref();
  };
}

export interface RunningServer {
  url: string;
  /** With MANAGEMENT_PORT: the listener of /healthz, /readyz and /metrics. */
  managementUrl?: string;
  /** Stops accepting, lets requests in flight finish (bounded), closes Kafka connections. */
  close(): Promise<void>;
}

/** Swagger UI's files: beside the bundle (dist/node/swagger-ui, from `npm run build`), else the package. */
function swaggerUiDir(): string {
  const beside = fileURLToPath(new URL('./swagger-ui/', import.meta.url));
  if (existsSync(join(beside, 'swagger-ui-bundle.js'))) return beside;
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const service = createService(config, { logger, awsMskIamSigner });
  const assetsDir = swaggerUiDir();
  const security = securityFrom(config, { clientAddress: (c) => getConnInfo(c).remote.address });
  const app = createApp({
    service: service.groups,
    clusters: clustersOf(service),
    security,
    tokens: tokenSigner(config.tokenKeys),
    logger,
    ...(config.publicUrl !== undefined && { publicUrl: config.publicUrl }),
    metricsNames: config.metricsNames,
    events: { limits: config.events },
    docsAssetsUrl: '/docs/assets',
    extend: (app) =>
      app.get('/docs/assets/:file', async (c) => {
        const type = DOCS_ASSETS.get(c.req.param('file'));
        if (!type) return c.notFound();
        const body = new Uint8Array(await readFile(join(assetsDir, c.req.param('file'))));
        return c.body(body, 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
      }),
  });

  const fetch = config.managementPort === undefined ? undefined : splitFetch(app.fetch);
  const server = serve({
    fetch: endStreamsWithClient(fetch?.public ?? app.fetch),
    port: config.port,
    serverOptions: { maxHeaderSize: MAX_HEADER_BYTES },
  });
  server.on('clientError', (error: Error, socket: Duplex) =>
    answerClientError(error, socket, MAX_HEADER_BYTES),
  );
  answerHalfClosed(server);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  let management: ManagementListener | undefined;
  if (fetch && config.managementPort !== undefined) {
    management = await startManagementListener(fetch.management, config.managementPort, {
      maxHeaderBytes: MAX_HEADER_BYTES,
      graceMs: SHUTDOWN_GRACE_MS,
      onClientError: (error, socket) => answerClientError(error, socket, MAX_HEADER_BYTES),
    }).catch((error) => {
      server.close();
      throw error;
    });
  }
  logger.info('listening', {
    url,
    ...(management && { managementUrl: management.url }),
    brokers: config.kafka.brokers,
    auth: config.auth.mode === 'none' ? 'none' : describeAuth(config.auth),
    writes: config.writes,
  });

  // Once stopping, answers not yet written say `Connection: close`, and a keep-alive connection is
  // closed as soon as its last answer is out: exit does not wait for clients to hang up.
  let stopping = false;
  const inFlight = new Set<ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (stopping) res.shouldKeepAlive = false;
    // Before Node closes the socket of a `Connection: close` exchange: closing it with the body's
    // bytes still arriving resets it, and the client may lose the 413 it was sent.
    res.once('prefinish', () => {
      if (res.statusCode === 413 && !req.complete) lingerOnClose(req.socket);
    });
    res.once('finish', () => {
      if (res.statusCode !== 413 || req.complete) return;
      req.resume();
      setTimeout(() => req.socket.destroy(), REFUSED_BODY_LINGER_MS).unref();
    });
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (stopping && 'closeIdleConnections' in server) setImmediate(() => server.closeIdleConnections());
    });
  });

  let closing: Promise<void> | undefined;
  const close = () => {
    stopping = true;
    for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
    closing ??= new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        logger.warn('requests still in flight after the grace period; closing anyway', {
          graceMs: SHUTDOWN_GRACE_MS,
        });
        if ('closeAllConnections' in server) server.closeAllConnections();
      }, SHUTDOWN_GRACE_MS);
      force.unref();
      // close() stops accepting and calls back once the requests in flight are answered.
      const managed = management?.close();
      server.close(() => {
        clearTimeout(force);
        Promise.resolve(managed)
          .then(() => service.close())
          .finally(resolve);
      });
      if ('closeIdleConnections' in server) server.closeIdleConnections();
    });
    return closing;
  };
  return { url, ...(management && { managementUrl: management.url }), close };
}

function describeAuth(auth: Extract<Config['auth'], { mode: 'enforced' }>): string {
  const kinds = [
    ...(auth.apiKeys.length > 0 ? [`${auth.apiKeys.length} API key(s)`] : []),
    ...(auth.jwt ? [`JWTs of ${auth.jwt.issuer}`] : []),
  ];
  return kinds.join(' and ');
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`configuration error: ${error.message}`);
    process.exit(2);
  }
  const logger = createLogger(config.logLevel);
  const server = await startServer(config, logger);
  // One plain line for people and scripts that wait for the server.
  console.log(
    `kafka-groups-rest listening on ${server.url}${config.auth.mode === 'none' ? ' (AUTH=none: no authentication, every caller reads every group)' : ''}`,
  );
  if (server.managementUrl) {
    console.log(`kafka-groups-rest serves /healthz, /readyz and /metrics on ${server.managementUrl}`);
  }
  const stop = (signal: string) => {
    logger.info('stopping', { signal });
    server.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
