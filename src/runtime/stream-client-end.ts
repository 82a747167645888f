/**
 * An event stream ends when its client's side of the connection does. The server lets a client
 * half-close (half-close.ts: its answer is still sent), but an event stream reads nothing more from
 * its client and EventSource never half-closes: a FIN there is a client gone, and the stream would
 * keep its slot of the caller's cap until its next write failed, up to EVENTS_HEARTBEAT_MS, so a
 * client that reconnected at once was refused 429. Its response is closed at the FIN instead,
 * which ends the stream (its body is cancelled) and releases the slot.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';

interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

type Fetch = (request: Request, env: NodeBindings) => Response | Promise<Response>;

const isEventStream = (response: Response) =>
  response.headers.get('content-type')?.toLowerCase().startsWith('text/event-stream') === true;

export function endStreamsWithClient<F extends Fetch>(fetch: F): F {
  return (async (request: Request, env: NodeBindings) => {
    const response = await fetch(request, env);
    const socket = env?.incoming?.socket;
    const outgoing = env?.outgoing;
    if (!socket || !outgoing || !isEventStream(response)) return response;
    const end = () => outgoing.destroy();
    if (socket.readableEnded) end();
    else {
      socket.once('end', end);
      outgoing.once('close', () => socket.off('end', end));
    }
    return response;
  }) as F;
}
