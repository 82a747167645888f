/**
 * A route module loaded on its first request (src/routes/lazy.ts) whose load fails is loaded again
 * by the next request: a failed import (a chunk not yet deployed, a read that failed) costs that
 * request, not every later one.
 */

import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import type { GroupService } from '../../src/groups/service.js';
import { lazyModule } from '../../src/routes/lazy.js';

const policy = { action: 'read', negotiates: true } as const;

/** A module of one route, `GET /things/{id}`, answering the id it was given. */
const thingRoutes = (app: OpenAPIHono) =>
  app.openapi(
    createRoute({
      method: 'get',
      path: '/things/{id}',
      request: { params: z.object({ id: z.string() }) },
      responses: { 200: { description: 'The thing' } },
    }),
    (c) => c.json({ id: c.req.valid('param').id }, 200),
  );
const THINGS = { thingRoutes };

function appOf(importer: () => Promise<typeof THINGS>) {
  const lazy = lazyModule([{ method: 'get', path: '/things/{id}', policy }], importer);
  const app = new OpenAPIHono();
  lazy.module((m, app) => m.thingRoutes(app), false)(app, {} as GroupService);
  app.onError((error, c) => c.text(String(error), 500));
  return { app, lazy };
}

describe('a route module loaded on its first request', () => {
  it('is loaded again by the next request when its load failed', async () => {
    let calls = 0;
    const { app, lazy } = appOf(async () => {
      calls += 1;
      if (calls === 1) throw new Error('chunk unavailable');
      return THINGS;
    });
    const failed = await app.request('/things/a');
    expect(failed.status).toBe(500);
    expect(await failed.text()).toContain('chunk unavailable');

    const answered = await app.request('/things/b');
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ id: 'b' });
    expect(calls).toBe(2);
    // Once loaded, it stays: neither a request nor a load imports it again.
    expect((await app.request('/things/c')).status).toBe(200);
    await expect(lazy.load()).resolves.toBe(THINGS);
    expect(calls).toBe(2);
  });

  it('is loaded once for requests arriving together', async () => {
    let calls = 0;
    const { app } = appOf(async () => {
      calls += 1;
      return THINGS;
    });
    const answers = await Promise.all(['a', 'b', 'c'].map((id) => app.request(`/things/${id}`)));
    expect(await Promise.all(answers.map((res) => res.json()))).toEqual([
      { id: 'a' },
      { id: 'b' },
      { id: 'c' },
    ]);
    expect(calls).toBe(1);
  });
});
