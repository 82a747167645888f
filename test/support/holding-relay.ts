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

  /** Resolves once an answer is being held. */
  arm(): Promise<void> {
    return new Promise((resolve) => {
      this.armed = resolve;
    });
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
    client.on('data', (chunk) => broker.write(chunk));
    broker.on('data', (chunk) => {
      const held = this.armed;
      if (!held) {
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
