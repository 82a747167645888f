/**
 * HEAD answers with GET's headers and no body. Hono drops the body of the GET answer it gives a
 * HEAD without cancelling it, so a streamed answer (an event stream, NDJSON, /metrics) would go on
 * being made for nobody: an event stream would keep its caller's stream slot and its poll until
 * its lifetime ends, long after the client left. Cancelled here, the stream's producer stops now.
 */

import type { Context } from 'hono';

/** The answer's body dropped and cancelled when the request is a HEAD (see above). */
export async function dropHeadBody(c: Context): Promise<void> {
  // The method first: on the Node server, reading `body` of an answer turns the adapter's light
  // Response into a whole one (a stream made of the string), for every answer, HEAD or not.
  if (c.req.method !== 'HEAD') return;
  const body = c.res.body;
  if (!body) return;
  const res = c.res;
  c.res = undefined;
  c.res = new Response(null, res);
  await body.cancel().catch(() => undefined);
}
