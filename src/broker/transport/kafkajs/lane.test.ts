/**
 * The Link's lane (lane.ts) over a stand-in socket: the test plays the broker byte by byte, so
 * answers can be cut across reads and packed several to a read, as TCP may deliver them.
 */

import { Duplex } from 'node:stream';
import Connection from 'kafkajs/src/network/connection.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../logger.js';
import { BrokerTimeoutError } from '../../errors.js';
import { ConnectionDroppedError, type Link, type TransportSocket } from '../link.js';
import { kafkajsTransport } from './index.js';

/** A socket whose peer is the test: what the Link writes is kept, what the test pushes is read. */
class StandInSocket extends Duplex {
  readonly written: Buffer[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.written.push(chunk);
    done();
  }
  override _read(): void {}
  unref(): this {
    return this;
  }
  /** The request frames written so far: [correlation id, api key]. */
  requests(): { correlationId: number; apiKey: number }[] {
    const all = Buffer.concat(this.written);
    const out: { correlationId: number; apiKey: number }[] = [];
    for (let at = 0; at < all.length; at += 4 + all.readInt32BE(at))
      out.push({ apiKey: all.readInt16BE(at + 4), correlationId: all.readInt32BE(at + 8) });
    return out;
  }
}

/** An answer frame: size, correlation id, then `body`. */
function answer(correlationId: number, body: number[]): Buffer {
  const frame = Buffer.alloc(8 + body.length);
  frame.writeInt32BE(4 + body.length, 0);
  frame.writeInt32BE(correlationId, 4);
  Buffer.from(body).copy(frame, 8);
  return frame;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const frame = (apiKey: number) => ({
  apiKey,
  apiVersion: 0,
  apiName: `Api${apiKey}`,
  body: Uint8Array.of(apiKey),
});

describe('the kafkajs Link’s lane (stand-in socket)', () => {
  const links: Link[] = [];
  afterEach(async () => {
    await Promise.all(links.splice(0).map((l) => l.close()));
  });

  async function open(requestTimeoutMs = 5_000) {
    const socket = new StandInSocket();
    const link = kafkajsTransport(silentLogger).open({
      host: 'stand-in',
      port: 9092,
      label: 'stand-in:9092',
      clientId: 'lane-test',
      ssl: null,
      sasl: null,
      socketFactory: ({ onConnect }) => {
        setImmediate(onConnect);
        return socket as unknown as TransportSocket;
      },
      connectionTimeoutMs: 1_000,
      requestTimeoutMs,
    });
    links.push(link);
    await link.connect();
    return { socket, link };
  }

  it('writes each request as one frame: size, request header v1, body', async () => {
    const { socket, link } = await open();
    const sent = link.send({
      apiKey: 15,
      apiVersion: 5,
      apiName: 'DescribeGroups',
      body: Uint8Array.of(7, 8),
    });
    expect(socket.written).toHaveLength(1);
    const written = socket.written[0] as Buffer;
    expect(written.readInt32BE(0)).toBe(written.length - 4);
    expect(written.readInt16BE(4)).toBe(15);
    expect(written.readInt16BE(6)).toBe(5);
    expect(written.readInt16BE(12)).toBe('lane-test'.length);
    expect(written.subarray(14, 23).toString()).toBe('lane-test');
    expect([...written.subarray(23)]).toEqual([7, 8]);
    socket.push(answer(written.readInt32BE(8), [1]));
    expect([...(await sent)]).toEqual([1]);
  });

  it("takes none of kafkajs's per-request path: its send is not called", async () => {
    const { socket, link } = await open();
    const send = vi.spyOn(Connection.prototype, 'send');
    try {
      const sent = link.send(frame(15));
      socket.push(answer(socket.requests()[0]?.correlationId as number, [2]));
      expect([...(await sent)]).toEqual([2]);
      expect(send).not.toHaveBeenCalled();
    } finally {
      send.mockRestore();
    }
  });

  it('answers cut across reads, and several in one read, out of order, each reach their own request', async () => {
    const { socket, link } = await open();
    const sent = [link.send(frame(15)), link.send(frame(16)), link.send(frame(18))];
    const [a, b, c] = socket.requests();
    expect([a?.apiKey, b?.apiKey, c?.apiKey]).toEqual([15, 16, 18]);
    const first = answer(a?.correlationId as number, [10, 11, 12, 13, 14, 15]);
    // Cut inside the size, inside the correlation id, then inside the body.
    for (const piece of [
      first.subarray(0, 2),
      first.subarray(2, 6),
      first.subarray(6, 10),
      first.subarray(10),
    ]) {
      socket.push(piece);
      await turn();
    }
    // The last two in one read, the later request's first, the second one's end in the next read.
    const both = Buffer.concat([
      answer(c?.correlationId as number, [30]),
      answer(b?.correlationId as number, [20, 21]),
    ]);
    socket.push(both.subarray(0, both.length - 1));
    await turn();
    socket.push(both.subarray(both.length - 1));
    const answers = await Promise.all(sent);
    expect(answers.map((x) => [...x])).toEqual([[10, 11, 12, 13, 14, 15], [20, 21], [30]]);
  });

  it('an answer that never comes fails its request with BrokerTimeoutError, and close() does not wait for it', async () => {
    const { link } = await open(150);
    const sent = link.send(frame(15));
    await expect(sent).rejects.toBeInstanceOf(BrokerTimeoutError);
    await expect(sent).rejects.toThrow('Api15');
    await link.close();
  });

  it('close() started while a request waits resolves once that request has timed out', async () => {
    const { link } = await open(150);
    const sent = link.send(frame(15));
    sent.catch(() => undefined);
    // close() waits for the queue to empty: the timed-out request must say it emptied it.
    const closed = link.close().then(() => 'closed');
    const hung = new Promise((resolve) => setTimeout(() => resolve('hung'), 1_500));
    await expect(sent).rejects.toBeInstanceOf(BrokerTimeoutError);
    expect(await Promise.race([closed, hung])).toBe('closed');
  });

  it('close() waits for the answers on the wire, as kafkajs does for its own requests', async () => {
    const { socket, link } = await open();
    const sent = link.send(frame(15));
    let closed = false;
    const closing = link.close().then(() => {
      closed = true;
    });
    await turn();
    expect(closed).toBe(false);
    socket.push(answer(socket.requests()[0]?.correlationId as number, [5]));
    expect([...(await sent)]).toEqual([5]);
    await closing;
  });

  it('the socket ending under requests fails them with ConnectionDroppedError; later sends fail at once', async () => {
    const { socket, link } = await open();
    const sent = link.send(frame(15));
    socket.push(null);
    await expect(sent).rejects.toBeInstanceOf(ConnectionDroppedError);
    await expect(sent).rejects.toThrow('Api15 to stand-in:9092 failed: Closed connection');
    await expect(link.send(frame(16))).rejects.toThrow('Api16 to stand-in:9092 failed: Not connected');
  });
});
