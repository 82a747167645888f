/**
 * The one door between this project's transport and the library that carries its bytes (today
 * kafkajs, in ./kafkajs/). Everything on this side (version negotiation, idle retry, the socket
 * cap, replacing a connection after a fault) speaks these types only, so the library can be
 * bumped, patched or swapped in one folder.
 *
 * A Link is one connection's worth of state: a socket, its correlation ids and its unread bytes.
 * It is not reused after a timeout or a dropped socket; the caller opens a new one.
 */

import type { Socket } from 'node:net';
import type { ConnectionOptions as TlsOptions } from 'node:tls';
import { BrokerUnavailableError } from '../errors.js';
import type { ClusterSettings } from './settings.js';

export interface VersionRange {
  min: number;
  max: number;
}

/**
 * A socket as the transport uses it: Node's net.Socket or something of its shape (the Worker's
 * adapter over `cloudflare:sockets`). It must emit 'close' once closed, however it closed.
 */
export type TransportSocket = Socket;

export interface SocketRequest {
  host: string;
  port: number;
  /** TLS options, or null/undefined for plain TCP. */
  ssl: TlsOptions | null | undefined;
  /** Called once the socket (and its TLS handshake) is connected. */
  onConnect: () => void;
}

/** Opens a socket for a broker; each runtime brings its own (Node's net/tls, Workers' connect()). */
export type SocketFactory = (request: SocketRequest) => TransportSocket;

/**
 * SASL as a connection uses it: a user and password, or OAUTHBEARER with a source of tokens shared
 * by every connection of the cluster (OIDC client credentials, Amazon MSK IAM).
 */
export type SaslCredentials =
  | Extract<NonNullable<ClusterSettings['sasl']>, { username: string }>
  | { mechanism: 'oauthbearer'; token: () => Promise<string> };

export interface LinkOptions {
  host: string;
  port: number;
  /** `host:port` as error messages name the broker. */
  label: string;
  clientId: string;
  ssl: TlsOptions | null;
  sasl: SaslCredentials | null;
  socketFactory: SocketFactory;
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
}

/** One request: the Link writes the size, the request header v1 (key, version, correlation id, client id), then `body`. */
export interface RequestFrame {
  apiKey: number;
  apiVersion: number;
  /** For error messages and logs. */
  apiName: string;
  /** Everything after the request header v1: for header v2 this starts with its (empty) tag section. */
  body: Uint8Array;
}

/**
 * Failures are this project's errors: BrokerTimeoutError (no answer within requestTimeoutMs),
 * ConnectionDroppedError (the socket closed or failed under the call), BrokerUnavailableError
 * (anything else the library reports, SASL failures included).
 */
export interface Link {
  /** Opens the socket (TLS included); rejects when it cannot. */
  connect(): Promise<void>;
  isConnected(): boolean;
  /**
   * SASL handshake and authenticate when credentials are set (otherwise nothing), with the
   * versions the broker gave in ApiVersions. Requests sent before it authenticate first anyway.
   */
  authenticate(versions: ReadonlyMap<number, VersionRange>): Promise<void>;
  /**
   * The SASL session the broker granted at the last authentication (epoch ms), when it limits it
   * (SaslAuthenticate v1 session_lifetime_ms: the token's expiry, or `connections.max.reauth.ms`).
   * The Link never re-authenticates in place while requests are on the wire; the caller retires it
   * before `endsAt` instead.
   */
  session(): { startedAt: number; endsAt: number } | undefined;
  /** Sends one request and resolves with the response bytes after the correlation id. */
  send(frame: RequestFrame): Promise<Uint8Array>;
  /** Closes the socket; never rejects. */
  close(): Promise<void>;
}

export interface Transport {
  /** The socket factory of a Node runtime (net and tls), for when the runtime brings none. */
  defaultSocketFactory(): SocketFactory;
  open(options: LinkOptions): Link;
}

/** The socket dropped under a request (closed, reset): a retry on a new socket may succeed. */
export class ConnectionDroppedError extends BrokerUnavailableError {}
