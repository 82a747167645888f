/**
 * The Link's own way for a request on kafkajs's connection: the frame is written to the socket in
 * one buffer, and an entry of the connection's request queue waits for its answer. kafkajs still
 * owns the socket and everything around a request: the factory, TLS, SASL and its handshake, the
 * framing of what arrives, answers matched by correlation id, request timeouts (its queue's
 * check), a dropped socket failing what is on the wire, and a disconnect waiting for it.
 *
 * What is skipped is its per-request path, which gives a describe nothing: four async turns (an
 * authentication check with nothing to do once authenticated, the request's encoding, the decode
 * and parse of bytes that go back undecoded), three zeroed 512-byte encoders copied into one
 * another, a request object with its instrumentation events, and debug records built whether or
 * not they are logged.
 */

import { KafkaJSRequestTimeoutError } from 'kafkajs/src/errors.js';
import type Connection from 'kafkajs/src/network/connection.js';
import type { RequestFrame, TransportSocket } from '../link.js';

const API_VERSIONS = 18;
/** What kafkajs's request queue emits once nothing is on the wire (a disconnect waits for it). */
const QUEUE_EMPTY = 'requestQueueEmpty';

export class Lane {
  private socket: TransportSocket | undefined;
  /** The client id as request header v1 writes it: an int16 length, then its UTF-8 bytes. */
  private readonly clientId: Buffer;

  constructor(
    readonly connection: Connection,
    clientId: string,
    private readonly sasl: boolean,
    readonly timeoutMs: number,
    /** kafkajs's errors as the Link reports them. */
    readonly translate: (error: unknown, api: string) => Error,
  ) {
    const id = Buffer.from(clientId, 'utf8');
    this.clientId = Buffer.allocUnsafe(2 + id.length);
    this.clientId.writeInt16BE(id.length, 0);
    id.copy(this.clientId, 2);
  }

  /** The socket kafkajs asked the factory for. */
  attach(socket: TransportSocket): void {
    this.socket = socket;
  }

  /**
   * Whether `apiKey` may go now: the socket is up and no SASL exchange reads it raw; with SASL,
   * authenticated (ApiVersions comes before, as the versions SASL needs come from it).
   */
  ready(apiKey: number): boolean {
    const { connection, socket } = this;
    return (
      socket !== undefined &&
      !socket.destroyed &&
      connection.isConnected() &&
      connection.authHandlers === null &&
      (!this.sasl || apiKey === API_VERSIONS || connection.isAuthenticated())
    );
  }

  /**
   * Writes `frame` (size, request header v1, body); resolves with the answer's bytes after its
   * correlation id.
   */
  send(frame: RequestFrame): Promise<Uint8Array> {
    const socket = this.socket as TransportSocket;
    const queue = this.connection.requestQueue;
    const { body } = frame;
    const correlationId = this.connection.nextCorrelationId();
    const head = 8 + this.clientId.length;
    // Its own memory, not a slice of Node's shared pool: a runtime's socket may keep the bytes it
    // was given (a Worker's stream) until they are sent.
    const out = Buffer.allocUnsafeSlow(4 + head + body.byteLength);
    out.writeInt32BE(head + body.byteLength, 0);
    out.writeInt16BE(frame.apiKey, 4);
    out.writeInt16BE(frame.apiVersion, 6);
    out.writeInt32BE(correlationId, 8);
    this.clientId.copy(out, 12);
    out.set(body, 4 + head);
    return new Promise<Uint8Array>((resolve, reject) => {
      queue.inflight.set(correlationId, new Entry(this, frame.apiName, correlationId, resolve, reject));
      socket.write(out);
    });
  }
}

/** A request of the lane in kafkajs's queue, in the shape its own entries have, for the members it calls. */
class Entry {
  readonly sentAt = Date.now();
  readonly requestTimeout: number;

  constructor(
    private readonly lane: Lane,
    private readonly api: string,
    readonly correlationId: number,
    private readonly resolve: (answer: Uint8Array) => void,
    private readonly reject: (error: Error) => void,
  ) {
    this.requestTimeout = lane.timeoutMs;
  }

  /** The answer, by kafkajs's framing. */
  completed({ payload }: { payload: Buffer }): void {
    this.resolve(new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength));
  }

  /** The socket dropped (kafkajs fails everything on the wire). */
  rejected(error: unknown): void {
    this.reject(this.lane.translate(error, this.api));
  }

  /** No answer within the request timeout (kafkajs's queue checks). */
  timeoutRequest(): void {
    const queue = this.lane.connection.requestQueue;
    queue.inflight.delete(this.correlationId);
    if (queue.inflight.size === 0 && queue.pending.length === 0) queue.emit(QUEUE_EMPTY);
    this.rejected(new KafkaJSRequestTimeoutError('timed out'));
  }
}
