/**
 * Cloudflare Worker. Configuration comes from the Worker's `env` (vars and secrets, the same
 * variable names as elsewhere). A socket cannot outlive the request that opened it, so each request
 * builds its own cluster, answers, and closes every socket before the response leaves: nothing is
 * carried from one request to the next. The runtime allows 6 open connections per request; the
 * cluster keeps at most MAX_CONNECTIONS. Sockets are `connect()` from cloudflare:sockets.
 *
 * Every response carries `x-kafka-connections: opened=N, closed=N, peak=N` for this request.
 */

import { createApp } from '../app.js';
import {
  type Config,
  ConfigError,
  clusterVariable,
  DEFAULT_CLUSTER_ALIAS,
  type Env,
  loadConfig,
} from '../config.js';
import type { Security } from '../http/middleware.js';
import { bindingLimiter, isRateLimitBinding } from '../http/rate-limit.js';
import { securityFrom } from '../http/security.js';
import { StreamSlots } from '../http/stream-slots.js';
import { createLogger } from '../logger.js';
import { PROBLEM_CONTENT_TYPE, problemBody } from '../openapi/problems.js';
import { type TokenSigner, tokenSigner } from '../tokens/signed.js';
import { clustersOf, createService } from '../wiring.js';
import { cloudflareSocketFactory, unsupportedTlsOption } from './cloudflare-socket.js';

// A module export other than the handler would be read as an entry point by workerd.
const MAX_CONNECTIONS = 5;
const CONNECTIONS_HEADER = 'x-kafka-connections';
/** The rate-limit binding's name in wrangler.toml; without it, a token bucket per isolate. */
const RATE_LIMIT_BINDING = 'RATE_LIMITER';

/**
 * Kept for the isolate's life, unlike the Kafka connections: the JWKS cache and the token buckets
 * would be useless if rebuilt per request. Rebuilt only when the configuration changes.
 */
let kept: { config: Config; security: Security; tokens: TokenSigner; slots: StreamSlots } | undefined;

function keptFor(
  config: Config,
  env: Record<string, unknown>,
): { security: Security; tokens: TokenSigner; slots: StreamSlots } {
  const shape = (c: Config) => JSON.stringify([c.auth, c.limits, c.tokenKeys, c.events]);
  if (kept && shape(kept.config) === shape(config)) return kept;
  const binding = env[RATE_LIMIT_BINDING];
  const security = securityFrom(config, {
    clientAddress: (c) => c.req.header('cf-connecting-ip'),
    platformRouted: true,
    ...(isRateLimitBinding(binding) && { rateLimiter: bindingLimiter(binding) }),
  });
  kept = {
    config,
    security,
    tokens: tokenSigner(config.tokenKeys),
    slots: new StreamSlots(config.events.maxStreamsPerPrincipal),
  };
  return kept;
}

const isEventStream = (response: Response) =>
  response.body !== null && (response.headers.get('content-type') ?? '').startsWith('text/event-stream');

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

function configOf(env: Record<string, unknown>): Config {
  const strings: Env = Object.fromEntries(
    Object.entries(env).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])),
  );
  const config = loadConfig(strings);
  for (const { alias, kafka } of config.clusters) {
    const where = alias === DEFAULT_CLUSTER_ALIAS ? 'KAFKA_' : clusterVariable(alias)('');
    const unsupported = unsupportedTlsOption(kafka.ssl);
    if (unsupported) throw new ConfigError(`${where}SSL`, unsupported);
    // AWS's signer finds credentials in files, the instance metadata service and STS through the
    // AWS SDK for Node: none of that is a Worker's. Refused here, so the SDK is never bundled.
    if (kafka.sasl?.mechanism === 'aws-msk-iam') {
      throw new ConfigError(
        `${where}SASL_MECHANISM`,
        "aws-msk-iam is not available on Cloudflare Workers (AWS's signer needs the AWS SDK for Node and its credential sources); run on Node or Lambda, or use SASL PLAIN/SCRAM or oauthbearer",
      );
    }
  }
  return config;
}

function configProblem(request: Request, error: ConfigError): Response {
  const body = problemBody(
    'configuration-error',
    `the service's configuration is invalid: ${error.message}`,
    {
      instance: new URL(request.url).pathname,
    },
  );
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE },
  });
}

export default {
  async fetch(request: Request, env: Record<string, unknown>, ctx: ExecutionContext): Promise<Response> {
    let config: Config;
    try {
      config = configOf(env);
    } catch (error) {
      if (error instanceof ConfigError) return configProblem(request, error);
      throw error;
    }
    const logger = createLogger(config.logLevel);
    const service = createService(config, {
      logger,
      socketFactory: cloudflareSocketFactory(),
      maxConnections: MAX_CONNECTIONS,
    });
    let response: Response;
    const { security, tokens, slots } = keptFor(config, env);
    try {
      response = await createApp({
        service: service.groups,
        clusters: clustersOf(service),
        security,
        tokens,
        logger,
        publicUrl: config.publicUrl,
        metricsNames: config.metricsNames,
        events: { limits: config.events, slots },
      }).fetch(request);
    } catch (error) {
      await service.close();
      throw error;
    }
    let body = response.body;
    if (isEventStream(response) && response.body) {
      // An event stream polls over this request's sockets until it ends: they close after it.
      const { readable, writable } = new TransformStream();
      ctx.waitUntil(
        response.body
          .pipeTo(writable)
          .catch(() => undefined)
          .finally(() => service.close()),
      );
      body = readable;
    } else {
      // Awaited here, not in ctx.waitUntil: the bodies are complete strings already, and a socket
      // left for after the response would be cut off by the runtime anyway.
      await service.close();
    }
    const { opened, closed, peak } = service.cluster.connectionStats();
    const headers = new Headers(response.headers);
    headers.set(CONNECTIONS_HEADER, `opened=${opened}, closed=${closed}, peak=${peak}`);
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  },
};
