/**
 * Whether a write request left for Kafka: what a caller needs to know before trying again when
 * the answer is a failure. Not sent: nothing changed. Sent: Kafka applied it, refused it (the
 * answer says so), or, when Kafka did not answer (a hung or killed broker), nobody knows yet.
 *
 * The mark is set once the connection to the broker is up and has negotiated its versions, just
 * before the request is written: a broker that cannot be reached never got it. Between the two a
 * socket may still drop; the mark then says "sent" when nothing was, the safe side of the doubt.
 */

import type { CallOptions } from '../../broker/deadline.js';
import type { ApiMessage } from '../../broker/protocol/api.js';
import type { BrokerConnection } from '../../broker/transport/connection.js';

export interface WriteProgress {
  sent: boolean;
}

export const writeProgress = (): WriteProgress => ({ sent: false });

/** What a write is given besides its request: the request's deadline, and where to mark it sent. */
export interface WriteOptions extends CallOptions {
  progress?: WriteProgress;
}

/** `connection.send(api, request, bounds)`, marking `progress` sent just before the request goes out. */
export async function sendWrite<Req, Res>(
  connection: BrokerConnection,
  { progress, deadline }: WriteOptions,
  api: ApiMessage<Req, Res>,
  request: Req,
  bounds?: Parameters<BrokerConnection['versionFor']>[1],
): Promise<{ version: number; response: Res }> {
  const options = { deadline };
  // Connects and negotiates: a broker that refuses the connection or does not answer here got nothing.
  if (progress && (await connection.versionFor(api, bounds, options)) !== undefined) progress.sent = true;
  return connection.send(api, request, bounds, options);
}
