import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamSlots } from '../http/stream-slots.js';
import { answerHalfClosed } from './half-close.js';
import { endStreamsWithClient } from './stream-client-end.js';

const slots = new StreamSlots(1);
let server: Server;
let port: number;

beforeAll(async () => {
  const app = new Hono();
  app.get('/events', (c) => {
    const release = slots.take('caller');
    if (!release) return c.json({ status: 429 }, 429);
    return streamSSE(c, async (stream) => {
      let closed = false;
      stream.onAbort(() => {
        closed = true;
      });
      // No heartbeat: only the client's FIN can end this stream within the test's wait.
      try {
        await stream.write(': open\n\n');
        while (!closed) await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        release();
      }
    });
  });
  app.get('/plain', (c) => c.text('ok'));
  server = serve({ fetch: endStreamsWithClient(app.fetch), port: 0, hostname: '127.0.0.1' }) as Server;
  answerHalfClosed(server);
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends `path`'s request, half-closes, and collects what comes back until the server closes. */
function halfClosed(path: string, endAfterHeaders: boolean) {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (chunk) => {
    text += chunk;
    if (endAfterHeaders && text.includes('\r\n\r\n')) socket.end();
  });
  socket.on('error', () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`);
  if (!endAfterHeaders) socket.end();
  return { closed, text: () => text, socket };
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

describe("an event stream on the Node server ends with its client's side", () => {
  it.each([
    ['a FIN after the stream opened', true],
    ['a FIN with the request', false],
  ])('%s: the slot is released at once, and the client reconnects', async (_name, afterHeaders) => {
    const client = halfClosed('/events', afterHeaders);
    expect(await until(() => client.text().includes('text/event-stream'), 2000)).toBe(true);
    expect(await until(() => slots.held('caller') === 0, 2000)).toBe(true);
    // Before the first connection is gone from this side: the slot is free all the same.
    const again = halfClosed('/events', true);
    expect(await until(() => again.text().includes('\r\n\r\n'), 2000)).toBe(true);
    expect(again.text()).toMatch(/^HTTP\/1\.1 200/);
    client.socket.destroy();
    again.socket.destroy();
    expect(await until(() => slots.held('caller') === 0, 2000)).toBe(true);
  });

  it('any other answer to a half-closed client is still sent whole', async () => {
    const client = halfClosed('/plain', false);
    await client.closed;
    expect(client.text()).toMatch(/^HTTP\/1\.1 200[\s\S]*\r\n\r\nok$/);
  });
});
