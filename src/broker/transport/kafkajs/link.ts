/**
 * A Link (../link.ts) on kafkajs's broker connection: kafkajs carries the bytes (socket factory,
 * TLS, SASL with its handshake (not its re-authentication: see reauthenticationThreshold),
 * correlation ids, request timeouts); the project's codec writes the request bodies and reads the
 * answers. Requests take the lane (lane.ts): written in one frame, answered through kafkajs's
 * request queue, without its per-request path.
 *
 * kafkajs 2.2.4 keeps this connection class out of its public typings (internals.d.ts declares
 * the part used here) and its package index pulls in its whole client, so the modules are imported
 * by path. kafkajs.test.ts fails when the pinned version or one of these paths changes.
 */

import type { SASLOptions } from 'kafkajs';
import {
  KafkaJSConnectionError,
  KafkaJSError,
  KafkaJSRequestTimeoutError,
  KafkaJSSASLAuthenticationError,
} from 'kafkajs/src/errors.js';
import Connection from 'kafkajs/src/network/connection.js';
import defaultSocketFactory from 'kafkajs/src/network/socketFactory.js';
import Encoder from 'kafkajs/src/protocol/encoder.js';
import type { Logger } from '../../../logger.js';
import { BrokerError, BrokerTimeoutError, BrokerUnavailableError } from '../../errors.js';
import {
  ConnectionDroppedError,
  type Link,
  type LinkOptions,
  type RequestFrame,
  type SocketFactory,
  type Transport,
  type TransportSocket,
  type VersionRange,
} from '../link.js';
import { Lane } from './lane.js';
import { kafkajsLogger } from './logging.js';

const SASL_AUTHENTICATE = 36;

/** The Transport over kafkajs, its log records routed into `logger`. */
export function kafkajsTransport(logger: Logger): Transport {
  const log = kafkajsLogger(logger);
  return {
    // Its typings say `ssl` is always set; its code (and every caller) passes null for plain TCP.
    defaultSocketFactory: () => noDelay(defaultSocketFactory() as SocketFactory),
    open: (options) => new KafkajsLink(options, log),
  };
}

/**
 * Nagle's algorithm off, as Kafka's own clients do (TCP_NODELAY): a request written while an
 * earlier one is unacknowledged (the describes of several types, pipelined) leaves at once instead
 * of waiting for the broker's acknowledgement, which a delayed ACK can hold back for tens of ms.
 */
function noDelay(factory: SocketFactory): SocketFactory {
  return (request) => factory(request).setNoDelay(true);
}

/**
 * kafkajs 2.2.4's request queue arms its pending-requests check after every answer, and the check
 * arms it again, whether or not anything is pending: from a connection's first answer on, the event
 * loop woke every millisecond for as long as the connection was open (CPU spent while idle, and a
 * timer turn wedged between a request and its answer). The check is kept for when it has work:
 * requests waiting in the queue (too many in flight, or a broker's throttle).
 */
function quietQueue(connection: Connection): void {
  const queue = connection.requestQueue;
  const schedule = queue.scheduleCheckPendingRequests.bind(queue);
  queue.scheduleCheckPendingRequests = () => {
    if (queue.pending.length > 0) schedule();
  };
}

class KafkajsLink implements Link {
  private readonly connection: Connection;
  /** How requests go out and their answers come back (lane.ts). */
  private readonly lane: Lane;
  private granted: { startedAt: number; endsAt: number } | undefined;

  constructor(
    private readonly options: LinkOptions,
    logger: unknown,
  ) {
    this.connection = new Connection({
      host: options.host,
      port: options.port,
      logger,
      socketFactory: (args) => {
        const socket = endOnClose(options.socketFactory(args));
        this.lane.attach(socket);
        return socket;
      },
      requestTimeout: options.requestTimeoutMs,
      connectionTimeout: options.connectionTimeoutMs,
      enforceRequestTimeout: true,
      ssl: options.ssl,
      sasl: kafkajsSasl(options.sasl),
      clientId: options.clientId,
      // kafkajs re-authenticates on the same socket once less than this is left of the session,
      // with requests in flight on it; the broker answers those ILLEGAL_SASL_STATE. With 0 it
      // would only try after the session ended, and BrokerConnection retires the Link before that.
      reauthenticationThreshold: 0,
    });
    quietQueue(this.connection);
    this.lane = new Lane(
      this.connection,
      options.clientId,
      options.sasl !== null,
      options.requestTimeoutMs,
      (e, api) => this.translate(e, api),
    );
  }

  async connect(): Promise<void> {
    try {
      await this.connection.connect();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ConnectionDroppedError(this.options.label, message, { cause: error });
    }
  }

  isConnected(): boolean {
    return this.connection.isConnected();
  }

  async authenticate(versions: ReadonlyMap<number, VersionRange>): Promise<void> {
    // kafkajs picks the SASL request versions from this table, in its own shape.
    const table: Record<number, { minVersion: number; maxVersion: number }> = {};
    for (const [key, range] of versions) table[key] = { minVersion: range.min, maxVersion: range.max };
    this.connection.setVersions(table);
    this.connection.setSupportAuthenticationProtocol(versions.has(SASL_AUTHENTICATE));
    if (!this.options.sasl) return;
    // Taken before the exchange: the broker counts the session from its end, so this errs early.
    const startedAt = Date.now();
    try {
      await this.connection.authenticate();
    } catch (error) {
      throw this.translate(error, 'SaslAuthenticate');
    }
    const lifetime = Number(this.connection.sessionLifetime.toString());
    this.granted = lifetime > 0 ? { startedAt, endsAt: startedAt + lifetime } : undefined;
  }

  session(): { startedAt: number; endsAt: number } | undefined {
    return this.granted;
  }

  send(frame: RequestFrame): Promise<Uint8Array> {
    return this.lane.ready(frame.apiKey) ? this.lane.send(frame) : this.sendAuthenticated(frame);
  }

  /** With SASL, authenticated first (the session ended: kafkajs's own send did the same); else not connected. */
  private async sendAuthenticated(frame: RequestFrame): Promise<Uint8Array> {
    if (this.options.sasl && this.connection.isConnected()) {
      try {
        await this.connection.authenticate();
      } catch (error) {
        throw this.translate(error, 'SaslAuthenticate');
      }
    }
    if (!this.lane.ready(frame.apiKey))
      throw this.translate(new KafkaJSConnectionError('Not connected'), frame.apiName);
    return this.lane.send(frame);
  }

  async close(): Promise<void> {
    await this.connection.disconnect().catch(() => undefined);
  }

  private translate(error: unknown, api: string): Error {
    const { label } = this.options;
    if (error instanceof BrokerError) return error;
    if (error instanceof KafkaJSRequestTimeoutError)
      return new BrokerTimeoutError(label, api, this.options.requestTimeoutMs);
    if (error instanceof KafkaJSSASLAuthenticationError)
      return new BrokerUnavailableError(label, `SASL authentication with ${label} failed: ${error.message}`);
    // Includes KafkaJSConnectionClosedError, its subclass.
    if (error instanceof KafkaJSConnectionError)
      return new ConnectionDroppedError(label, `${api} to ${label} failed: ${error.message}`, {
        cause: error,
      });
    if (error instanceof KafkaJSError)
      return new BrokerUnavailableError(label, `${api} to ${label} failed: ${error.message}`, {
        cause: error,
      });
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The mechanism names are kafkajs's own (lower case); the credentials pass through as given. */
function kafkajsSasl(sasl: LinkOptions['sasl']): SASLOptions | null {
  if (sasl === null) return null;
  if (sasl.mechanism === 'oauthbearer') {
    // kafkajs's own OAUTHBEARER takes the server's error challenge for a success (see below).
    return {
      mechanism: 'oauthbearer',
      authenticationProvider: oauthBearer(sasl.token),
    } as unknown as SASLOptions;
  }
  return sasl;
}

const SOH = '\u0001';
type SaslAuthenticate = (exchange: {
  request: { encode: () => Promise<Buffer> };
  response: { decode: (bytes: Buffer) => Promise<Buffer>; parse: (bytes: Buffer) => Promise<Buffer> };
}) => Promise<Buffer | undefined>;

/**
 * SASL OAUTHBEARER (RFC 7628). A broker that refuses a token (expired, wrong audience, unknown key)
 * does not fail the exchange at once: it answers with an error challenge, a JSON status, and waits
 * for the client's lone %x01 before failing it. kafkajs 2.2.4 ignores that answer and sends its
 * next request into the unfinished exchange, which the broker answers with ILLEGAL_SASL_STATE in
 * the request's own error fields (an empty Metadata, for one). Here the challenge is read, the
 * exchange finished, and the refusal reported with the broker's status.
 */
function oauthBearer(token: () => Promise<string>) {
  const bytes = (text: string) => async () => new Encoder().writeBytes(Buffer.from(text)).buffer;
  const raw = { decode: async (b: Buffer) => b, parse: async (b: Buffer) => b };
  return ({ saslAuthenticate }: { saslAuthenticate: SaslAuthenticate }) => ({
    authenticate: async () => {
      const value = await token();
      const challenge = await saslAuthenticate({
        request: { encode: bytes(`n,,${SOH}auth=Bearer ${value}${SOH}${SOH}`) },
        response: raw,
      });
      // Success answers no bytes (or a bare length); a refusal answers a JSON object with a status.
      const text = challenge?.toString('utf8') ?? '';
      const start = text.indexOf('{');
      let status: string | undefined;
      try {
        const parsed = JSON.parse(start < 0 ? 'null' : text.slice(start)) as { status?: unknown } | null;
        if (typeof parsed?.status === 'string') status = parsed.status.slice(0, 100);
      } catch {}
      if (status === undefined) return;
      await saslAuthenticate({ request: { encode: bytes(SOH) }, response: raw }).catch(() => undefined);
      throw new KafkaJSSASLAuthenticationError(
        `SASL OAUTHBEARER authentication failed: the broker refused the token (${status})`,
      );
    },
  });
}

/**
 * kafkajs listens for 'end' and 'error' only: a socket destroyed without either (closed locally to
 * make room, found dead after a freeze) would look connected to it forever, and a request on it
 * would wait for its timeout. Such a socket says 'end' when it closes.
 */
function endOnClose(socket: TransportSocket): TransportSocket {
  let ended = false;
  socket.on('end', () => {
    ended = true;
  });
  socket.on('error', () => {
    ended = true;
  });
  socket.once('close', () => {
    if (!ended) socket.emit('end');
  });
  return socket;
}
