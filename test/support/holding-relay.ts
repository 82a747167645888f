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

/**
 * The first `headBytes` after the size of every Kafka frame in one direction of a connection, however
 * TCP cuts the stream: a frame's head may straddle chunks, and a chunk may start inside a frame.
 */
class FrameHeads {
  private skip = 0;
  private partial = Buffer.alloc(0);
  constructor(private readonly headBytes: number) {}

  /** `read` gets each head and where its frame starts in `chunk` (0 when it started in an earlier one). */
  feed(chunk: Buffer, read: (head: Buffer, start: number) => void): void {
    for (let at = 0; at < chunk.length; ) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - at);
        this.skip -= n;
        at += n;
        continue;
      }
      const start = Math.max(0, at - this.partial.length);
      const take = chunk.subarray(at, at + 4 + this.headBytes - this.partial.length);
      this.partial = Buffer.concat([this.partial, take]);
      at += take.length;
      if (this.partial.length < 4 + this.headBytes) return;
      read(this.partial.subarray(4), start);
      this.skip = this.partial.readInt32BE(0) - this.headBytes;
      this.partial = Buffer.alloc(0);
    }
  }
}

/** Relays to `target`; once armed, holds the next answer for HOLD_MS and says when it has one. */
export class HoldingRelay {
  private armed: (() => void) | undefined;
  private apiKey: number | undefined;
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
   * answer to a request of that API sent after arming (Metadata is 3), so that what is held is what
   * the test waits on and not a connection's ApiVersions.
   */
  arm(apiKey?: number): Promise<void> {
    this.apiKey = apiKey;
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
    // Correlation ids are a connection's own: each relayed connection tracks the requests it awaits.
    const requests = new FrameHeads(8);
    const answers = new FrameHeads(4);
    const awaited = new Set<number>();
    // Once an answer is held, what follows on the connection waits behind it: bytes keep their order,
    // and the broker's end of the connection too.
    let queued: Buffer[] | undefined;
    let ended = false;
    client.on('data', (chunk: Buffer) => {
      requests.feed(chunk, (head) => {
        if (this.armed && this.apiKey !== undefined && head.readInt16BE(0) === this.apiKey)
          awaited.add(head.readInt32BE(4));
      });
      broker.write(chunk);
    });
    broker.on('data', (chunk: Buffer) => {
      // Where, in this chunk, the first wanted answer starts: what comes before it is not held.
      let from = -1;
      answers.feed(chunk, (head, start) => {
        const id = head.readInt32BE(0);
        if (from < 0 && this.armed && (this.apiKey === undefined || awaited.has(id))) from = start;
        awaited.delete(id);
      });
      if (queued) {
        queued.push(chunk);
        return;
      }
      const held = from >= 0 ? this.armed : undefined;
      if (!held) {
        client.write(chunk);
        return;
      }
      this.armed = undefined;
      if (from > 0) client.write(chunk.subarray(0, from));
      queued = [chunk.subarray(from)];
      held();
      setTimeout(() => {
        for (const c of queued ?? []) client.write(c);
        queued = undefined;
        if (ended) client.end();
      }, HOLD_MS);
    });
    client.on('end', () => broker.end());
    broker.on('end', () => {
      if (queued) ended = true;
      else client.end();
    });
  }
}
