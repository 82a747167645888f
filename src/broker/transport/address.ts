/** A broker's host and port, and how the project writes them (IPv6 hosts in brackets). */

export interface BrokerAddress {
  host: string;
  port: number;
}

export function formatAddress({ host, port }: BrokerAddress): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** `host:port`, or `[v6]:port`, as KAFKA_BROKERS and Metadata write it. */
export function parseAddress(address: string): BrokerAddress {
  const at = address.lastIndexOf(':');
  const host = address.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(address.slice(at + 1)) };
}
