/**
 * The transport's sockets over Cloudflare's `connect()` (cloudflare:sockets): the few members of
 * net.Socket that the transport and its Link use (write, end, destroy, setKeepAlive, unref,
 * `destroyed`; events connect, data, end, error, close), on top of the socket's web streams. TLS is
 * `secureTransport: 'on'`: the runtime verifies the broker against public roots, with the broker's
 * host name; it offers no custom CA, client certificate, other server name, or unverified mode.
 */

import { connect, type Socket } from 'cloudflare:sockets';
import { Buffer } from 'node:buffer';
import { EventEmitter } from 'node:events';
import type { Socket as NetSocket } from 'node:net';
import type { SocketFactory } from '../broker/transport/link.js';
import type { KafkaConfig } from '../config.js';

type Connect = typeof connect;

/** Why `ssl` cannot be honoured by `connect()`, naming the variable; undefined when it can. */
export function unsupportedTlsOption(ssl: KafkaConfig['ssl']): string | undefined {
  if (ssl === false) return undefined;
  const reasons: Array<[boolean, string]> = [
    [ssl.ca !== undefined, 'KAFKA_SSL_CA (the runtime trusts public certificate authorities only)'],
    [
      ssl.cert !== undefined || ssl.key !== undefined,
      'KAFKA_SSL_CERT / KAFKA_SSL_KEY (no client certificates)',
    ],
    [!ssl.rejectUnauthorized, 'KAFKA_SSL_REJECT_UNAUTHORIZED=false (certificates are always verified)'],
    [ssl.servername !== undefined, 'KAFKA_SSL_SERVERNAME (the server name is the broker host)'],
  ];
  const found = reasons.filter(([set]) => set).map(([, why]) => why);
  return found.length > 0 ? `not supported on Cloudflare Workers: ${found.join('; ')}` : undefined;
}

/** A socket factory over `connect()`; `open` is replaceable for tests. */
export function cloudflareSocketFactory(open: Connect = connect): SocketFactory {
  return ({ host, port, ssl, onConnect }) =>
    new WorkerSocket(open, host, port, Boolean(ssl), onConnect) as unknown as NetSocket;
}

class WorkerSocket extends EventEmitter {
  destroyed = false;
  private readonly socket: Socket;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;

  constructor(open: Connect, host: string, port: number, tls: boolean, onConnect: () => void) {
    super();
    this.socket = open(
      { hostname: host, port },
      { secureTransport: tls ? 'on' : 'off', allowHalfOpen: false },
    );
    this.writer = this.socket.writable.getWriter();
    this.socket.opened.then(
      () => {
        if (this.destroyed) return;
        this.emit('connect');
        onConnect();
      },
      (error: unknown) => this.fail(error),
    );
    void this.read(this.socket.readable.getReader());
  }

  write(data: Uint8Array | string): boolean {
    if (this.destroyed) return false;
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    this.writer.write(bytes).catch((error: unknown) => this.fail(error));
    return true;
  }

  /** A connection is ended only to drop it: nothing is left to send, so this closes at once. */
  end(): this {
    return this.destroy();
  }

  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.socket
      .close()
      .catch(() => undefined)
      .then(() => this.emit('close'));
    return this;
  }

  // Keep-alive probes, timeouts and event-loop references are the runtime's business.
  setKeepAlive(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setTimeout(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }

  private async read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (!this.destroyed) this.emit('data', Buffer.from(value.buffer, value.byteOffset, value.byteLength));
      }
      if (this.destroyed) return;
      this.emit('end');
      this.destroy();
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    if (this.destroyed) return;
    this.emit('error', error instanceof Error ? error : new Error(String(error)));
    this.destroy();
  }
}
