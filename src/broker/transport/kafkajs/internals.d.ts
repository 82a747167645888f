// kafkajs 2.2.4 keeps these modules out of its public typings; this is the part link.ts and
// logging.ts use. kafkajs.test.ts checks each path and member against the installed package.
declare module 'kafkajs/src/network/connection.js' {
  import type { ConnectionOptions as TlsOptions } from 'node:tls';
  import type { ISocketFactory, SASLOptions } from 'kafkajs';

  export interface KafkajsProtocolRequest {
    apiKey: number;
    apiVersion: number;
    apiName: string;
    encode(): Promise<{ buf: Buffer; buffer: Buffer }> | { buf: Buffer; buffer: Buffer };
  }
  export interface KafkajsProtocolResponse<T> {
    decode(payload: Buffer): Promise<T> | T;
    parse(decoded: T): Promise<T> | T;
  }

  export default class Connection {
    constructor(options: {
      host: string;
      port: number;
      logger: unknown;
      socketFactory: ISocketFactory;
      requestTimeout: number;
      connectionTimeout: number;
      enforceRequestTimeout?: boolean;
      ssl?: TlsOptions | null;
      sasl?: SASLOptions | null;
      clientId: string;
      maxInFlightRequests?: number | null;
      /** ms before the session's end at which it re-authenticates in place (default 10 000). */
      reauthenticationThreshold?: number;
    });
    /** The last SaslAuthenticate's session_lifetime_ms (a Long; 0 when unlimited). */
    readonly sessionLifetime: { toString(): string };
    readonly host: string;
    readonly port: number;
    /** Its queue of requests (link.ts quiets its pending-requests check, see quietQueue). */
    readonly requestQueue: {
      /** Requests waiting to be sent (too many in flight, or throttled). */
      readonly pending: unknown[];
      /** The timer of the next pending-requests check, when one is armed. */
      readonly throttleCheckTimeoutId: unknown;
      scheduleCheckPendingRequests(): void;
      /** Requests on the wire by correlation id (lane.ts adds its own, in the shape of kafkajs's). */
      readonly inflight: Map<number, object>;
      emit(event: string): boolean;
    };
    /** Set while a SASL exchange reads the socket raw (its handshake v0 mechanisms). */
    readonly authHandlers: object | null;
    /** The next correlation id of the socket, shared by every request on it. */
    nextCorrelationId(): number;
    setVersions(versions: Record<number, { minVersion: number; maxVersion: number }>): void;
    setSupportAuthenticationProtocol(isSupported: boolean): void;
    /** SASL handshake and authenticate, unless done (or no SASL); needs setVersions first. */
    authenticate(): Promise<void>;
    isConnected(): boolean;
    /** Authenticated, and not due for re-authentication (its session near its end). */
    isAuthenticated(): boolean;
    connect(): Promise<true>;
    disconnect(): Promise<void>;
    send<T>(protocol: {
      request: KafkajsProtocolRequest;
      response: KafkajsProtocolResponse<T>;
      requestTimeout?: number | null;
      logResponseError?: boolean;
    }): Promise<T>;
  }
}

declare module 'kafkajs/src/network/socketFactory.js' {
  import type { ISocketFactory } from 'kafkajs';
  export default function defaultSocketFactory(): ISocketFactory;
}

declare module 'kafkajs/src/loggers/index.js' {
  import type { logCreator, logLevel } from 'kafkajs';
  export const LEVELS: typeof logLevel;
  export function createLogger(options: { level: logLevel; logCreator: logCreator }): unknown;
}

declare module 'kafkajs/src/protocol/encoder.js' {
  export default class Encoder {
    writeBuffer(value: Buffer): this;
    /** An int32 length, then the bytes. */
    writeBytes(value: Buffer): this;
    readonly buf: Buffer;
    readonly buffer: Buffer;
  }
}

declare module 'kafkajs/src/errors.js' {
  export class KafkaJSError extends Error {
    readonly retriable: boolean;
  }
  export class KafkaJSConnectionError extends KafkaJSError {}
  export class KafkaJSConnectionClosedError extends KafkaJSConnectionError {}
  export class KafkaJSRequestTimeoutError extends KafkaJSError {}
  export class KafkaJSSASLAuthenticationError extends KafkaJSError {}
  export class KafkaJSProtocolError extends KafkaJSError {
    constructor(e: { type: string; code: number; retriable: boolean; message: string });
    readonly type: string;
    readonly code: number;
  }
  export class KafkaJSServerDoesNotSupportApiKey extends KafkaJSError {
    constructor(message: string, details: { apiKey: number; apiName?: string });
  }
}
