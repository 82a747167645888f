/**
 * MANAGEMENT_PORT: the probes and /metrics on a listener of their own, so the public listener need
 * not expose them (Kubernetes probes and Prometheus reach the pod's management port; an ingress
 * routes the public one). Each cluster's /clusters/{alias}/readyz and /metrics go with them; its
 * /clusters/{alias}/cluster is an API route and stays public. Both listeners run the same app,
 * guards included: a scrape needs the same credentials on either. A path is told by the app
 * router's own reading of it (hono's getPath decodes it the same way), so an encoded `/%6detrics`
 * is no way around the split.
 */

import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { serve } from '@hono/node-server';
import { getPath } from 'hono/utils/url';
import { PROBLEM_CONTENT_TYPE, problemBody } from '../openapi/problems.js';
import { answerHalfClosed } from './half-close.js';

export const MANAGEMENT_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/** Each cluster's readiness and metrics are probes and scrapes too: they go where /readyz and /metrics go. */
const CLUSTER_MANAGEMENT_PATH = /^\/clusters\/[^/]+\/(?:readyz|metrics)$/;

export const isManagementPath = (path: string): boolean =>
  MANAGEMENT_PATHS.has(path) || CLUSTER_MANAGEMENT_PATH.test(path);

type Fetch = (request: Request, env?: unknown) => Response | Promise<Response>;

function notHere(request: Request, where: string): Response {
  const body = problemBody(
    'route-not-found',
    `${request.method} ${getPath(request)} is not served on this port; ${where}`,
  );
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE },
  });
}

/** The app's fetch split in two: the public one without the management paths, the other with only them. */
export function splitFetch(fetch: Fetch): { public: Fetch; management: Fetch } {
  return {
    public: (request, env) =>
      isManagementPath(getPath(request))
        ? notHere(request, 'probes and metrics are served on the management port (MANAGEMENT_PORT)')
        : fetch(request, env),
    management: (request, env) =>
      isManagementPath(getPath(request))
        ? fetch(request, env)
        : notHere(
            request,
            'the management port serves /healthz, /readyz and /metrics only, and /readyz and /metrics under /clusters/{alias}',
          ),
  };
}

export interface ManagementListener {
  url: string;
  /** Stops accepting, answers the requests in flight (at most `graceMs`), closes its connections. */
  close(): Promise<void>;
}

export async function startManagementListener(
  fetch: Fetch,
  port: number,
  options: { maxHeaderBytes: number; graceMs: number; onClientError: (error: Error, socket: Duplex) => void },
): Promise<ManagementListener> {
  const server = serve({ fetch, port, serverOptions: { maxHeaderSize: options.maxHeaderBytes } });
  answerHalfClosed(server);
  server.on('clientError', options.onClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  let stopping = false;
  server.on('request', (_req, res: ServerResponse) => {
    if (stopping) res.shouldKeepAlive = false;
    res.once('close', () => {
      if (stopping && 'closeIdleConnections' in server) setImmediate(() => server.closeIdleConnections());
    });
  });
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      stopping = true;
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          if ('closeAllConnections' in server) server.closeAllConnections();
        }, options.graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        if ('closeIdleConnections' in server) server.closeIdleConnections();
      });
      return closing;
    },
  };
}
