/**
 * Web links (RFC 8288) that let OpenAPI-aware clients find their way without reading the README:
 * every answer, errors included, links the document (`rel="service-desc"`, RFC 8631), and a page
 * with more after it links the next page (`rel="next"`) beside its `nextCursor`.
 *
 * Both are relative references, resolved against the request's own URL: behind a proxy that
 * mounts the API under a prefix the next page stays under it. The document's link is
 * `/openapi.json` from the root, where the API serves it.
 */

import type { Context } from 'hono';

export const SERVICE_DESC_LINK = '</openapi.json>; rel="service-desc"';

/** Answers made with the document's link already among their headers (`linkedJson`). */
const linked = new WeakSet<Response>();

/**
 * A JSON answer carrying the document's link from the start: its headers stay a plain object,
 * which the Node adapter writes as they are, where adding the link afterwards makes a Headers.
 */
export function linkedJson(body: unknown, status = 200): Response {
  const res = new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', link: SERVICE_DESC_LINK },
  });
  linked.add(res);
  return res;
}

/** The document's link on the answer, unless it carries it already: run on every answer's way out (app.ts). */
export function addServiceDescLink(c: Context): void {
  if (linked.has(c.res)) return;
  // A linked answer copied on its way out (CORS headers set before it) still carries the link.
  editHeaders(c, (headers) => {
    if (!headers.get('link')?.includes(SERVICE_DESC_LINK)) headers.append('link', SERVICE_DESC_LINK);
  });
}

/** Changes the answer's headers; one with immutable headers (fetched from elsewhere) is copied first. */
export function editHeaders(c: Context, edit: (headers: Headers) => void): void {
  try {
    edit(c.res.headers);
  } catch {
    const res = new Response(c.res.body, c.res);
    edit(res.headers);
    c.res = res;
  }
}

/**
 * The `rel="next"` link of a page: the request's last path segment (a relative-path reference) and
 * its query with `cursor` replaced, every other parameter kept as the caller gave it.
 */
export function nextLink(c: Context, cursor: string): string {
  const url = new URL(c.req.url);
  const segment = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  const params = [...new URLSearchParams(url.search)].filter(([name]) => name !== 'cursor');
  params.push(['cursor', cursor]);
  const query = params.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&');
  return `<${segment}?${query}>; rel="next"`;
}

/** Percent-encodes all but RFC 3986's unreserved characters: nothing in it can end the `<…>`. */
function encode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
