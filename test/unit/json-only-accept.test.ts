/**
 * A route that answers JSON alone says 406, naming what it offers, to an Accept that takes no
 * JSON (RFC 9110 §12.5.1); routes with other representations weigh the header themselves, and the
 * probes answer whatever it says. The group service is a stand-in that describes any group.
 */

import { describe, expect, it } from 'vitest';
import { standInApp } from '../support/stand-in-app.js';

const app = standInApp({
  describeGroup: async (groupId: string) => ({ groupId, type: 'classic', state: 'Empty', members: [] }),
});

describe('an Accept header a JSON-only route cannot meet', () => {
  it.each([
    ['/groups/orders', 'text/html'],
    ['/groups/orders', 'application/x-ndjson'],
    ['/groups/orders', 'application/json;q=0, text/*'],
    ['/clusters/default/groups/orders', 'text/plain'],
  ])('GET %s with Accept %s is a 406 naming application/json', async (path, accept) => {
    const res = await app.request(path, { headers: { accept } });
    expect(res.status).toBe(406);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const body = (await res.json()) as { type: string; offers: string[] };
    expect(body.type).toBe('/problems/not-acceptable');
    expect(body.offers).toEqual(['application/json']);
  });

  it.each([undefined, '', '*/*', 'application/*', 'application/json', 'text/html, */*;q=0.1'])(
    'GET /groups/orders with Accept %s is answered in JSON',
    async (accept) => {
      const res = await app.request('/groups/orders', {
        headers: accept === undefined ? {} : { accept },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { groupId: string }).groupId).toBe('orders');
    },
  );

  it('leaves the probes and the routes with other representations to answer', async () => {
    expect((await app.request('/healthz', { headers: { accept: 'text/plain' } })).status).toBe(200);
    const metrics = await app.request('/metrics', { headers: { accept: 'text/plain' } });
    expect(metrics.status).not.toBe(406);
    const listing = await app.request('/groups', { headers: { accept: 'application/x-ndjson' } });
    expect(listing.status).not.toBe(406);
  });

  it('is documented on every operation that answers JSON alone', async () => {
    const document = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: object }> }>>;
    };
    let checked = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (path === '/healthz' || path === '/readyz' || path.endsWith('/readyz')) continue;
        const types = Object.entries(operation.responses)
          .filter(([status]) => status.startsWith('2'))
          .flatMap(([, response]) => Object.keys(response.content ?? {}));
        if (types.length === 0 || types.some((t) => t !== 'application/json')) continue;
        expect(operation.responses['406'], `${method} ${path}`).toBeDefined();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
