/**
 * The door's lock: what this folder relies on in kafkajs, checked against the installed package.
 * A version bump, a moved or reshaped deep path, or a change in how its connection frames bytes
 * fails here (no broker: a loopback socket plays the peer), not at run time on the TLS/SASL path.
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, Socket as NetSocket, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../logger.js';
import { BrokerTimeoutError } from '../../errors.js';
import { ConnectionDroppedError, type Link, type TransportSocket } from '../link.js';
import { kafkajsTransport } from './index.js';

/** The version this folder was written and checked against. Bump it only after reading its diff. */
const PINNED = '2.2.4';

const require = createRequire(import.meta.url);

describe('kafkajs, as this folder relies on it', () => {
  it(`is pinned to ${PINNED}, and ${PINNED} is what is installed`, () => {
    const project = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'));
    expect(project.dependencies.kafkajs).toBe(PINNED);
    expect(require('kafkajs/package.json').version).toBe(PINNED);
  });

  it('keeps the deep paths the Link imports, with the members it calls', () => {
    const Connection = require('kafkajs/src/network/connection.js');
    for (const method of [
      'connect',
      'disconnect',
      'isConnected',
      'send',
      'authenticate',
      'setVersions',
      'setSupportAuthenticationProtocol',
    ]) {
      expect(typeof Connection.prototype[method], `Connection#${method}`).toBe('function');
    }
    // The Link turns off re-authentication in place and reads the session the broker granted.
    const connection = new Connection({
      host: '127.0.0.1',
      port: 9,
      logger: { namespace: () => ({}) },
      socketFactory: () => undefined,
      clientId: 'x',
      reauthenticationThreshold: 0,
    });
    expect(connection.reauthenticationThreshold).toBe(0);
    // The Link quiets the queue's pending-requests check (link.ts, quietQueue).
    expect(typeof connection.requestQueue.scheduleCheckPendingRequests).toBe('function');
    expect(Array.isArray(connection.requestQueue.pending)).toBe(true);
    expect('throttleCheckTimeoutId' in connection.requestQueue).toBe(true);
    expect(connection.sessionLifetime.toString()).toBe('0');
    // The lane (lane.ts): correlation ids, the raw SASL exchanges' flag, and the queue's entries,
    // which its framing, timeout check, drop and disconnect reach through these members only.
    expect(connection.nextCorrelationId()).toBe(0);
    expect(connection.nextCorrelationId()).toBe(1);
    expect(connection.authHandlers).toBeNull();
    expect(connection.requestQueue.inflight).toBeInstanceOf(Map);
    const queueSource = readFileSync(require.resolve('kafkajs/src/network/requestQueue/index.js'), 'utf8');
    for (const use of [
      "const REQUEST_QUEUE_EMPTY = 'requestQueueEmpty'",
      'if (Date.now() - request.sentAt > request.requestTimeout) {',
      'request.timeoutRequest()',
      'const socketRequest = this.inflight.get(correlationId)',
      'socketRequest.completed({ size, payload })',
      'socketRequest.rejected(error)',
      'if (this.pending.length === 0 && this.inflight.size === 0) {',
    ])
      expect(queueSource, use).toContain(use);
    expect(readFileSync(require.resolve('kafkajs/src/network/connection.js'), 'utf8')).toContain(
      'this.requestQueue.fulfillRequest({',
    );

    const Encoder = require('kafkajs/src/protocol/encoder.js');
    const encoded = new Encoder().writeBuffer(Buffer.from([1, 2, 3]));
    expect([...encoded.buffer]).toEqual([1, 2, 3]);

    const socketFactory = require('kafkajs/src/network/socketFactory.js');
    expect(typeof socketFactory()).toBe('function');

    const loggers = require('kafkajs/src/loggers/index.js');
    expect(loggers.LEVELS).toMatchObject({ NOTHING: 0, ERROR: 1, WARN: 2, INFO: 4, DEBUG: 5 });
    expect(typeof loggers.createLogger).toBe('function');

    const errors = require('kafkajs/src/errors.js');
    expect(errors.KafkaJSConnectionError.prototype).toBeInstanceOf(errors.KafkaJSError);
    expect(errors.KafkaJSConnectionClosedError.prototype).toBeInstanceOf(errors.KafkaJSConnectionError);
    expect(errors.KafkaJSRequestTimeoutError.prototype).toBeInstanceOf(errors.KafkaJSError);
    expect(errors.KafkaJSSASLAuthenticationError.prototype).toBeInstanceOf(errors.KafkaJSError);
  });
});

/** A loopback peer that records each request frame and answers as `answer` says. */
class Peer {
  readonly frames: Buffer[] = [];
  readonly sockets: Socket[] = [];
  private readonly server: Server;
  port = 0;

  constructor(answer: (frame: Buffer, socket: Socket) => void) {
    this.server = createServer((socket) => {
      this.sockets.push(socket);
      let pending = Buffer.alloc(0);
      socket.on('data', (chunk) => {
        pending = Buffer.concat([pending, chunk]);
        while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
          const frame = pending.subarray(4, 4 + pending.readInt32BE(0));
          pending = pending.subarray(4 + frame.length);
          this.frames.push(frame);
          answer(frame, socket);
        }
      });
      socket.on('error', () => undefined);
    });
  }

  listen(): Promise<void> {
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => {
        this.port = (this.server.address() as { port: number }).port;
        resolve();
      }),
    );
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A response frame: size, correlation id (from the request), then `body`. */
function respond(socket: Socket, request: Buffer, body: Buffer): void {
  const head = Buffer.alloc(8);
  head.writeInt32BE(4 + body.length, 0);
  head.writeInt32BE(request.readInt32BE(4), 4);
  socket.write(Buffer.concat([head, body]));
}

describe('the kafkajs Link, against a loopback peer', () => {
  const peers: Peer[] = [];
  const links: Link[] = [];
  afterEach(async () => {
    await Promise.all(links.splice(0).map((l) => l.close()));
    await Promise.all(peers.splice(0).map((p) => p.close()));
  });

  async function linkTo(answer: (frame: Buffer, socket: Socket) => void, requestTimeoutMs = 5_000) {
    const peer = new Peer(answer);
    await peer.listen();
    peers.push(peer);
    const sockets: TransportSocket[] = [];
    const transport = kafkajsTransport(silentLogger);
    const factory = transport.defaultSocketFactory();
    const link = transport.open({
      host: '127.0.0.1',
      port: peer.port,
      label: `127.0.0.1:${peer.port}`,
      clientId: 'door-test',
      ssl: null,
      sasl: null,
      socketFactory: (request) => {
        const socket = factory(request);
        sockets.push(socket);
        return socket;
      },
      connectionTimeoutMs: 2_000,
      requestTimeoutMs,
    });
    links.push(link);
    return { peer, link, sockets };
  }

  it('writes request header v1 then the body, and gives back the bytes after the correlation id', async () => {
    const { peer, link } = await linkTo((frame, socket) => respond(socket, frame, Buffer.from([9, 8, 7])));
    await link.connect();
    expect(link.isConnected()).toBe(true);
    const answer = await link.send({
      apiKey: 16,
      apiVersion: 4,
      apiName: 'ListGroups',
      body: Uint8Array.from([0, 0xaa, 0xbb]),
    });
    expect([...answer]).toEqual([9, 8, 7]);

    const frame = peer.frames[0] as Buffer;
    expect(frame.readInt16BE(0)).toBe(16); // api key
    expect(frame.readInt16BE(2)).toBe(4); // api version
    const clientIdLength = frame.readInt16BE(8);
    expect(frame.subarray(10, 10 + clientIdLength).toString()).toBe('door-test');
    expect([...frame.subarray(10 + clientIdLength)]).toEqual([0, 0xaa, 0xbb]);
  });

  it("opens its sockets with Nagle's algorithm off, as Kafka's own clients do", async () => {
    const noDelay = vi.spyOn(NetSocket.prototype, 'setNoDelay');
    try {
      const { link, sockets } = await linkTo((frame, socket) => respond(socket, frame, Buffer.from([1])));
      await link.connect();
      expect(sockets).toHaveLength(1);
      expect(noDelay.mock.contexts).toContain(sockets[0]);
      expect(noDelay.mock.calls[noDelay.mock.contexts.indexOf(sockets[0])]).toEqual([true]);
    } finally {
      noDelay.mockRestore();
    }
  });

  it('arms no timer once answered: its queue is checked only while requests wait in it', async () => {
    const { link } = await linkTo((frame, socket) => respond(socket, frame, Buffer.from([1])));
    await link.connect();
    const body = new Uint8Array();
    await link.send({ apiKey: 18, apiVersion: 0, apiName: 'ApiVersions', body });
    await Promise.all(
      [1, 2, 3].map(() => link.send({ apiKey: 18, apiVersion: 0, apiName: 'ApiVersions', body })),
    );
    const { requestQueue } = (link as unknown as { connection: { requestQueue: Record<string, unknown> } })
      .connection;
    expect(requestQueue.pending).toEqual([]);
    expect(requestQueue.throttleCheckTimeoutId ?? null).toBeNull();
  });

  it('no answer within the request timeout → BrokerTimeoutError naming the RPC', async () => {
    const { link } = await linkTo(() => undefined, 300);
    await link.connect();
    const sent = link.send({ apiKey: 18, apiVersion: 0, apiName: 'ApiVersions', body: new Uint8Array() });
    await expect(sent).rejects.toBeInstanceOf(BrokerTimeoutError);
    await expect(sent).rejects.toThrow('ApiVersions');
  });

  it('the peer closes under a request → ConnectionDroppedError', async () => {
    const { link } = await linkTo((_frame, socket) => socket.destroy());
    await link.connect();
    const sent = link.send({ apiKey: 18, apiVersion: 0, apiName: 'ApiVersions', body: new Uint8Array() });
    await expect(sent).rejects.toBeInstanceOf(ConnectionDroppedError);
  });

  it('a socket destroyed locally, with no end or error, no longer counts as connected', async () => {
    const { link, sockets } = await linkTo(() => undefined);
    await link.connect();
    expect(sockets).toHaveLength(1);
    sockets[0]?.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(link.isConnected()).toBe(false);
  });

  it('nothing listening → connect() rejects with ConnectionDroppedError', async () => {
    const { peer, link } = await linkTo(() => undefined);
    await peer.close();
    peers.splice(0);
    await expect(link.connect()).rejects.toBeInstanceOf(ConnectionDroppedError);
  });
});
