import { describe, expect, it } from 'vitest';
import { splitFetch } from './management.js';

const app = (request: Request) => new Response(`app ${new URL(request.url).pathname}`);
const split = splitFetch(app);

describe('splitFetch', () => {
  it.each([
    '/healthz',
    '/readyz',
    '/metrics',
    '/metrics?granularity=partition',
    '/%6detrics',
    '/%68ealthz',
    '/clusters/eu/readyz',
    '/clusters/eu/metrics?maxSeries=5',
    '/clusters/eu/%6detrics',
  ])('%s: management only', async (path) => {
    const request = () => new Request(`http://127.0.0.1${path}`);
    expect(await (await split.management(request())).text()).toMatch(/^app /);
    const refused = await split.public(request());
    expect(refused.status).toBe(404);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(((await refused.json()) as { detail: string }).detail).toContain(
      'management port (MANAGEMENT_PORT)',
    );
  });

  it.each([
    '/groups',
    '/cluster',
    '/openapi.json',
    '/docs',
    '/metrics/',
    '/metricsx',
    '/clusters/eu/groups',
    '/clusters/eu/cluster',
    '/clusters/eu/healthz',
    '/clusters/eu/metrics/',
    '/clusters/eu/x/readyz',
  ])('%s: public only', async (path) => {
    const request = () => new Request(`http://127.0.0.1${path}`);
    expect(await (await split.public(request())).text()).toMatch(/^app /);
    const refused = await split.management(request());
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { detail: string }).detail).toContain(
      'serves /healthz, /readyz and /metrics only',
    );
  });
});
