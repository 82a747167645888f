/** A broker's host and port, and how the project writes them (IPv6 hosts in brackets). */

export interface BrokerAddress {
  host: string;
  port: number;
}

export function formatAddress({ host, port }: BrokerAddress): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
