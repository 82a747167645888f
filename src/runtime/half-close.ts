/**
 * A client may send its request and then close its side (a FIN: `nc -N`, some proxies and probe
 * scripts); it still reads the answer. Node's HTTP server aborts the request on that FIN unless
 * told otherwise, so every answer not written at once (any that waits for Kafka, the document)
 * was lost; with this, the answer is sent and the connection closed after it.
 */
export function answerHalfClosed(server: object): void {
  (server as { httpAllowHalfOpen?: boolean }).httpAllowHalfOpen = true;
}
