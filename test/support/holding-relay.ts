/**
 * A stand-in between the server and the broker, to hold a request in flight for a known time: a
 * loopback relay that passes bytes both ways and, once armed, holds one answer of the broker.
 */

import { createConnection, createServer, type Server, type Socket } from 'node:net';

export const HOLD_MS = 1_000;

/**
 * Waits after `dropConnections` until the server can no longer send on the dropped socket unaware:
 * a request that races the close fails as a dropped connection, and the server rightly passes it to
 * another broker (the real one, not through the relay), so nothing would be held. After the server's
 * idle-retry window (1 s), even a close it has not yet seen is retried on a new socket here.
 */
export function settleAfterDrop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1_100));
}

/** Relays to `target`; once armed, holds the next answer chunk for HOLD_MS and says when it has one. */
export class HoldingRelay {
  private armed: (() => void) | undefined;
  private apiKey: number | undefined;
  /** Correlation ids of requests of `apiKey` sent while armed. */
  private readonly awaited = new Set<number>();
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<HoldingRelay> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const relay = new HoldingRelay(server, (server.address() as { port: number }).port);
    server.on('connection', (client) => relay.relay(client, target));
    return relay;
  }

  /**
   * Resolves once an answer is being held: the next answer of any kind, or with `apiKey` the next
   * answer to a request of that API (Metadata is 3), so that what is held is what the test waits on
   * and not a connection's ApiVersions or a background read.
   */
  arm(apiKey?: number): Promise<void> {
    this.apiKey = apiKey;
    this.awaited.clear();
    return new Promise((resolve) => {
      this.armed = resolve;
    });
  }

  /** The correlation ids of the frames that start in `chunk` (size, then the rest of the frame). */
  private static frames(chunk: Buffer, read: (frame: Buffer) => void): void {
    for (let at = 0; at + 12 <= chunk.length; ) {
      const size = chunk.readInt32BE(at);
      // A chunk that starts inside a frame has no header here: nothing to read.
      if (size < 8) return;
      read(chunk.subarray(at + 4));
      at += 4 + size;
    }
  }

  /** Closes every relayed connection: the server's next request opens a new one. */
  dropConnections(): void {
    for (const s of this.sockets) s.destroy();
  }

  async stop(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket, target: { host: string; port: number }): void {
    const broker = createConnection(target);
    for (const s of [client, broker]) {
      this.sockets.add(s);
      s.on('error', () => {
        client.destroy();
        broker.destroy();
      });
      s.on('close', () => this.sockets.delete(s));
    }
    client.on('data', (chunk: Buffer) => {
      if (this.armed && this.apiKey !== undefined)
        HoldingRelay.frames(chunk, (frame) => {
          if (frame.readInt16BE(0) === this.apiKey) this.awaited.add(frame.readInt32BE(4));
        });
      broker.write(chunk);
    });
    broker.on('data', (chunk: Buffer) => {
      const held = this.armed;
      let wanted = this.apiKey === undefined;
      if (held && !wanted)
        HoldingRelay.frames(chunk, (frame) => {
          if (this.awaited.has(frame.readInt32BE(0))) wanted = true;
        });
      if (!held || !wanted) {
        client.write(chunk);
        return;
      }
      this.armed = undefined;
      held();
      setTimeout(() => client.write(chunk), HOLD_MS);
    });
    client.on('end', () => broker.end());
    broker.on('end', () => client.end());
  }
}
