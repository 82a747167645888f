/**
 * Every operation of the document reaches its route, at its short path and under
 * /clusters/{alias}: no documented path and method answers "not a route" (404) or "method not
 * allowed" (405), and every other method on a documented path is a 405 whose Allow lists exactly
 * the document's methods (HEAD with GET). Paths that are no route are a 404. Whatever router Hono
 * picks, these answers stay. The group service is a stand-in: routing answers before any broker call.
 */

import { describe, expect, it } from 'vitest';
import { standInApp } from '../support/stand-in-app.js';

const app = standInApp();
const SAMPLE: Record<string, string> = {
  groupId: 'g1',
  alias: 'default',
  topic: 't1',
  instanceId: 'i1',
};
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

async function documentPaths(): Promise<Map<string, string[]>> {
  const res = await app.request('/openapi.json');
  const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
  return new Map(
    Object.entries(doc.paths).map(([path, item]) => [
      path,
      METHODS.filter((m) => m in item).map((m) => m.toUpperCase()),
    ]),
  );
}

const concrete = (template: string) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(SAMPLE[name] ?? 'x'));

const templatePattern = (template: string) =>
  new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`);

async function answer(path: string, method: string) {
  const res = await app.request(path, {
    method,
    ...(method !== 'GET' &&
      method !== 'HEAD' && { headers: { 'content-type': 'application/json' }, body: '{}' }),
  });
  if (res.status !== 404 && res.status !== 405) {
    await res.body?.cancel();
    return { status: res.status, type: undefined, allow: null };
  }
  const body = (await res.json()) as { type: string };
  return { status: res.status, type: body.type, allow: res.headers.get('allow') };
}

describe('route matching of every documented path (stand-in service)', () => {
  it('reaches a route for each documented method, and answers 405 with Allow for the others', async () => {
    const paths = await documentPaths();
    expect(paths.size).toBeGreaterThan(30);
    expect([...paths.keys()].filter((p) => p.startsWith('/clusters/{alias}/')).length).toBeGreaterThan(10);
    for (const [template, methods] of paths) {
      const path = concrete(template);
      for (const method of methods) {
        const { type } = await answer(path, method);
        expect({ template, method, type }).not.toMatchObject({
          type: expect.stringMatching(/route-not-found|method-not-allowed/),
        });
      }
      // Allow names every method of every template the path matches.
      const served = new Set([...paths].flatMap(([t, ms]) => (templatePattern(t).test(path) ? ms : [])));
      const allowed = [...served, ...(served.has('GET') ? ['HEAD'] : [])].sort();
      // A method another template serves at this path (GET /groups/describe is the group `describe`) is that route's.
      const others = METHODS.map((m) => m.toUpperCase()).filter((m) => !served.has(m));
      for (const other of others) {
        const { status, type, allow } = await answer(path, other);
        expect({ template, other, status, type, allow }).toEqual({
          template,
          other,
          status: 405,
          type: expect.stringMatching(/method-not-allowed$/),
          allow: allowed.join(', '),
        });
      }
    }
  });

  it.each([
    '/nope',
    '/groups/g1/nope',
    '/groups/g1/members',
    '/clusters/default/nope',
    '/clusters/default/groups/g1/offsets/nope',
    '/groups.json',
  ])('%s is no route: 404 route-not-found', async (path) => {
    const { status, type } = await answer(path, 'GET');
    expect({ status, type }).toEqual({ status: 404, type: expect.stringMatching(/route-not-found$/) });
  });

  it('an unknown cluster alias is a 404 naming the clusters', async () => {
    const { status, type } = await answer('/clusters/elsewhere/groups/g1', 'GET');
    expect({ status, type }).toEqual({ status: 404, type: expect.stringMatching(/cluster-not-found$/) });
  });

  it.each([
    ['/groups/describe', 'POST'],
    ['/groups/describe', 'GET'],
    ['/groups/g1/members/remove', 'POST'],
    ['/groups/g1/members/remove', 'DELETE'],
    ['/clusters/default', 'GET'],
  ])('%s %s goes to its own route, not a neighbour with a parameter', async (path, method) => {
    const { type } = await answer(path, method);
    expect(type ?? '').not.toMatch(/route-not-found|method-not-allowed/);
  });
});
