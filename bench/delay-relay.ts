/**
 * A loopback TCP relay that puts a network between a client and a broker: each chunk waits half
 * the round trip in each direction, in order, and a new connection's first bytes wait one more
 * round trip for the TCP handshake a real network would cost (the client's own connect to the
 * relay is local, so the relay holds its data instead). With `rttMs` 0 it only forwards.
 *
 * A child process reaches it through REDIRECT_PRELOAD, which sends its connects to the broker's
 * advertised address to the relay: Metadata and FindCoordinator answer with the broker's own
 * address, so without it only the bootstrap connection would cross the relay.
 */

import net from 'node:net';

export interface DelayRelay {
  /** host:port to connect to instead of the broker. */
  readonly address: string;
  /** Connections relayed so far: a check that the child's connections crossed it. */
  connections(): number;
  close(): Promise<void>;
}

/** A queue that releases each chunk at its own time, never before the one ahead of it. */
function delayedPipe(to: net.Socket, firstAt: number, delayMs: number): (chunk: Buffer) => void {
  let releaseAt = firstAt;
  return (chunk) => {
    releaseAt = Math.max(releaseAt, performance.now() + delayMs);
    const wait = releaseAt - performance.now();
    if (wait <= 0) to.write(chunk);
    else setTimeout(() => to.write(chunk), wait);
  };
}

export async function startDelayRelay(target: string, rttMs: number): Promise<DelayRelay> {
  const at = target.lastIndexOf(':');
  const host = target.slice(0, at);
  const port = Number(target.slice(at + 1));
  const oneWay = rttMs / 2;
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((client) => {
    accepted++;
    client.setNoDelay(true);
    const upstream = net.connect({ host, port });
    upstream.setNoDelay(true);
    sockets.add(client).add(upstream);
    // SYN, SYN-ACK (the client may send now), then its first bytes' own way: three one-way trips.
    const toBroker = delayedPipe(upstream, performance.now() + 3 * oneWay, oneWay);
    const toClient = delayedPipe(client, 0, oneWay);
    client.on('data', (chunk) => (rttMs > 0 ? toBroker(chunk) : upstream.write(chunk)));
    upstream.on('data', (chunk) => (rttMs > 0 ? toClient(chunk) : client.write(chunk)));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const s of [client, upstream]) {
      s.on('error', end);
      s.on('close', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: relayPort } = server.address() as net.AddressInfo;
  return {
    address: `127.0.0.1:${relayPort}`,
    connections: () => accepted,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * For `node --import`: a child's connects to REDIRECT_FROM (host:port) go to REDIRECT_TO. Only a
 * bench child loads it; it rewrites `net.connect` in that process, never in the bundle.
 */
export const REDIRECT_PRELOAD = `data:text/javascript,${encodeURIComponent(`
import net from 'node:net';
const from = process.env.REDIRECT_FROM, to = process.env.REDIRECT_TO;
if (from && to) {
  const at = to.lastIndexOf(':'), host = to.slice(0, at), port = Number(to.slice(at + 1));
  const connect = net.connect;
  net.connect = net.createConnection = function (options, ...rest) {
    if (options && typeof options === 'object' && options.host + ':' + options.port === from)
      options = { ...options, host, port };
    return connect.call(this, options, ...rest);
  };
}
`)}`;
