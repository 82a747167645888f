/**
 * AWS Lambda: API Gateway REST (v1) and HTTP (v2) APIs, function URLs and ALB targets, through
 * `hono/aws-lambda`, on the platform's own Request and Response. Configuration comes from the
 * function's environment.
 * One client is built on the first invocation and kept by warm ones; a socket that died while the
 * function was frozen is replaced by the transport on its next use (see BrokerConnection), so no
 * request fails for it.
 * The first invocation opens its broker connection before it builds the app, so the connection's
 * round trips overlap that work (bench/cold-start.ts --rtt measures it).
 */

import type { Writable } from 'node:stream';
import { getConnInfo, handle, type LambdaContext, type LambdaEvent, streamHandle } from 'hono/aws-lambda';
import { createApp } from '../app.js';
import { NO_DEADLINE } from '../broker/deadline.js';
import { awsMskIamSigner } from '../broker/transport/sasl/aws-msk-iam.js';
import { loadConfig } from '../config.js';
import { securityFrom } from '../http/security.js';
import { createLogger } from '../logger.js';
import { PROBLEM_CONTENT_TYPE } from '../openapi/problem-catalogue.js';
import { tokenSigner } from '../tokens/signed.js';
import { clustersOf, createService, type Service } from '../wiring.js';
import { eventFault, malformedEventResult, withoutIgnoredBody } from './lambda-event.js';

interface Instance {
  service: Service;
  app: ReturnType<typeof createApp>;
}

let instance: Promise<Instance> | undefined;
let streaming: Promise<Instance> | undefined;

/** One turn of the event loop: the socket events that arrived meanwhile run (a connect, an answer). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `streaming`: the instance behind `streamHandler`, whose answers Lambda streams (a function URL in
 * RESPONSE_STREAM mode); the buffered `handler` answers the event routes 501 instead, since a
 * stream buffered until the function times out would never reach the client.
 */
async function build(stream: boolean): Promise<Instance> {
  // A bad variable, or no authentication choice, throws ConfigError, which names it (never a
  // secret's value); Lambda logs it and the invocation fails: the function refuses to serve.
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const service = createService(config, { logger, awsMskIamSigner });
  // The first answer needs a connection: opened now, its handshake and ApiVersions travel while
  // the app builds, CPU work no socket event could interrupt. A broker that cannot be reached is
  // the request's to report (it tries every broker again). No request waits on it.
  service.cluster.anyBroker((c) => c.apiVersions(NO_DEADLINE), NO_DEADLINE).catch(() => undefined);
  await turn();
  // Built once per instance: the token buckets and the JWKS cache outlive one invocation.
  const security = securityFrom(config, {
    clientAddress: (c) => getConnInfo(c).remote.address,
    platformRouted: true,
  });
  const app = createApp({
    service: service.groups,
    clusters: clustersOf(service),
    security,
    tokens: tokenSigner(config.tokenKeys),
    logger,
    publicUrl: config.publicUrl,
    metricsNames: config.metricsNames,
    events: { limits: config.events, streaming: stream },
  });
  // A connect that completed meanwhile sends its ApiVersions now, before the request's own work.
  await turn();
  return { service, app };
}

/** A build that failed (a bad variable) is tried again by the next invocation, as before. */
function retried(built: Promise<Instance>, forget: () => void): Promise<Instance> {
  return built.catch((error: unknown) => {
    forget();
    throw error;
  });
}

let buffered: ReturnType<typeof handle> | undefined;

export async function handler<E extends LambdaEvent>(event: E, context?: LambdaContext) {
  const fault = eventFault(event);
  if (fault) return malformedEventResult(event, fault);
  if (!instance) {
    // Forgets only its own failure: a reset (tests) may have put another build in its place.
    const building: Promise<Instance> = retried(build(false), () => {
      if (instance === building) instance = undefined;
    });
    instance = building;
  }
  buffered ??= handle((await instance).app);
  return buffered(withoutIgnoredBody(event), context);
}

/** The app streaming handlers call, built on the first invocation like the buffered one's. */
const lazyStreamingApp = {
  fetch: async (request: Request, env: unknown) => {
    if (!streaming) {
      const building: Promise<Instance> = retried(build(true), () => {
        if (streaming === building) streaming = undefined;
      });
      streaming = building;
    }
    return (await streaming).app.fetch(request, env as never);
  },
} as unknown as Parameters<typeof streamHandle>[0];

/**
 * The response-streaming handler (`awslambda.streamifyResponse`, present only inside Lambda's Node
 * runtime): set it as the function's handler behind a function URL with InvokeMode RESPONSE_STREAM
 * to serve the event streams. Undefined outside Lambda.
 */
export const streamHandler: ((...args: unknown[]) => unknown) | undefined =
  'awslambda' in globalThis ? streamingHandler() : undefined;

/** The streaming runtime's two calls this handler makes (present only inside Lambda's Node runtime). */
interface LambdaStreaming {
  streamifyResponse(fn: (event: unknown, stream: Writable, context: unknown) => Promise<void>): unknown;
  HttpResponseStream: {
    from(stream: Writable, metadata: { statusCode: number; headers: Record<string, string> }): Writable;
  };
}

/**
 * Hono's streaming handler, behind the event check the buffered handler makes: an event that is
 * no HTTP request gets the same problem+json, where Hono would throw, log a stack and answer a
 * plain "Internal Server Error".
 */
function streamingHandler(): (...args: unknown[]) => unknown {
  const lambda = (globalThis as { awslambda?: unknown }).awslambda as LambdaStreaming;
  // streamifyResponse marks the handler and returns it: Hono's may be called as it is.
  const hono = streamHandle(lazyStreamingApp) as unknown as (
    event: unknown,
    stream: Writable,
    context: unknown,
  ) => Promise<void>;
  return lambda.streamifyResponse(async (event, stream, context) => {
    const fault = eventFault(event);
    if (!fault) return hono(event, stream, context);
    const result = malformedEventResult({}, fault);
    const out = lambda.HttpResponseStream.from(stream, {
      statusCode: result.statusCode,
      headers: { 'content-type': PROBLEM_CONTENT_TYPE },
    });
    out.end(result.body);
  }) as (...args: unknown[]) => unknown;
}

/** For tests: the warm instance's cluster (its sockets), and a reset to a cold start. */
export const __lambdaInternals = {
  /** AWS's MSK IAM signer as the bundle loads it (its own chunk, on first use). */
  awsMskIamSigner,
  cluster: async (): Promise<Service['cluster'] | undefined> => (await instance)?.service.cluster,
  async reset(): Promise<void> {
    const current = [instance, streaming];
    instance = undefined;
    streaming = undefined;
    buffered = undefined;
    for (const i of current) await (await i?.catch(() => undefined))?.service.close();
  },
};
