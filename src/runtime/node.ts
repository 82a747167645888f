/**
 * The Node server: configuration from process.env, kafkajs's own TCP/TLS sockets, Swagger UI's
 * assets served locally, and a graceful stop on SIGTERM/SIGINT.
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from '../app.js';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { createLogger, type Logger } from '../logger.js';
import { createService } from '../service.js';

const DOCS_ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};
// Group ids may be 32,767 UTF-8 bytes, three times that percent-encoded: Node's 16 KiB default
// would refuse the longest ones with a bare 431 before the API can say anything.
const MAX_HEADER_BYTES = 256 * 1024;
const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningServer {
  url: string;
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
  const service = createService(config, { logger });
  const assetsDir = swaggerUiDir();
  const app = createApp({
    service: service.groups,
    logger,
    ...(config.publicUrl !== undefined && { publicUrl: config.publicUrl }),
    docsAssetsUrl: '/docs/assets',
    extend: (app) =>
      app.get('/docs/assets/:file', async (c) => {
        const type = DOCS_ASSETS[c.req.param('file') as keyof typeof DOCS_ASSETS];
        if (!type) return c.notFound();
        const body = new Uint8Array(await readFile(join(assetsDir, c.req.param('file'))));
        return c.body(body, 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
      }),
  });

  const server = serve({
    fetch: app.fetch,
    port: config.port,
    serverOptions: { maxHeaderSize: MAX_HEADER_BYTES },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  logger.info('listening', { url, brokers: config.kafka.brokers });

  // Once stopping, answers not yet written say `Connection: close`, and a keep-alive connection is
  // closed as soon as its last answer is out: exit does not wait for clients to hang up.
  let stopping = false;
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (stopping) res.shouldKeepAlive = false;
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
      server.close(() => {
        clearTimeout(force);
        service.close().finally(resolve);
      });
      if ('closeIdleConnections' in server) server.closeIdleConnections();
    });
    return closing;
  };
  return { url, close };
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
  console.log(`kafka-groups-rest listening on ${server.url}`);
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
