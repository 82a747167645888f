import type { TransportSocket } from './link.js';

/** How long `closeSocket` waits for a socket to report that it closed. */
const CLOSE_WAIT_MS = 2_000;

/** Closes `socket` now and resolves once it has said so (bounded: a close must not hang a response). */
export function closeSocket(socket: TransportSocket): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, CLOSE_WAIT_MS);
    (timer as { unref?: () => void }).unref?.();
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.destroy();
  });
}
