/**
 * ALLOWED_HOSTS as data: the host patterns, what AUTH=none serves without a list, and whether a URL
 * is for a host served. The guards that answer for it are in http/hosts.ts.
 */

/** One ALLOWED_HOSTS entry: a name (or `*.` and a domain: its subdomains), and a port or any. */
export interface HostPattern {
  /** Lowercase; an IPv6 address in brackets, as a URL's host has it. */
  name: string;
  /** Matches every subdomain of `name` (from `*.name`), not `name` itself. */
  subdomains: boolean;
  /** Undefined: any port. */
  port?: number;
}

/** Which hosts are served: any (`*`, or authentication on and no list), or those matching a pattern. */
export type HostRule = { any: true } | { any: false; patterns: readonly HostPattern[]; variable: string };

/** What AUTH=none serves without ALLOWED_HOSTS. */
export const LOOPBACK_HOSTS: readonly HostPattern[] = ['localhost', '127.0.0.1', '[::1]'].map((name) => ({
  name,
  subdomains: false,
}));

/** Parses one entry; undefined when it is not a host name, an address or one of these with a port. */
export function hostPattern(entry: string): HostPattern | undefined {
  const text = entry.trim().toLowerCase();
  const subdomains = text.startsWith('*.');
  let url: URL;
  try {
    // The URL parser checks and normalises the name (IDNA, IPv4 forms, IPv6 brackets) as it will
    // the request's own.
    url = new URL(`http://${subdomains ? text.slice(2) : text}`);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
  const withPort = /:\d+$/.test(text);
  // `new URL` drops a port of 80: keep the one written.
  const port = withPort ? Number(text.slice(text.lastIndexOf(':') + 1)) : undefined;
  if (port !== undefined && port > 65535) return undefined;
  return { name: url.hostname, subdomains, ...(port !== undefined && { port }) };
}

/** Whether a request to `url` (as the runtime built it) is for a host the rule serves. */
export function servesHost(rule: HostRule, url: URL): boolean {
  if (rule.any) return true;
  const name = url.hostname;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return rule.patterns.some(
    (p) =>
      (p.subdomains ? name.endsWith(`.${p.name}`) : name === p.name) &&
      (p.port === undefined || p.port === port),
  );
}
