/**
 * An app made at start (the Lambda's first invocation, every Worker request) builds what serves
 * requests and nothing only the document needs: the answers of its routes and the descriptions of
 * the cluster mirrors come with the document's first request (routes/start-docs.ts), and only the
 * document's own app describes the mirrors, however many apps are made after it. The bundle's
 * own test (test/runtime/bundle.test.ts) checks the modules a Lambda start loads.
 */

import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { START_DOCS } from '../../src/routes/deferred-docs.js';
import { standInApp } from '../support/stand-in-app.js';

const mirrored = (app: ReturnType<typeof standInApp>) =>
  app.openAPIRegistry.definitions.filter(
    (d) => d.type === 'route' && d.route.path.startsWith('/clusters/{alias}/'),
  ).length;

describe('an app made at start', () => {
  it("describes no mirror and loads none of the document's models until the document is asked for", async () => {
    const app = standInApp();
    expect(START_DOCS.loaded()).toBeUndefined();
    expect(mirrored(app)).toBe(0);
    // It serves as before: the describe's validators are there.
    const bad = await app.request('/groups/g1?type=bogus');
    expect(bad.status).toBe(400);
    expect(START_DOCS.loaded()).toBeUndefined();

    const document = (await (await app.request('/openapi.json')).json()) as { paths: object };
    expect(Object.keys(document.paths)).toContain('/clusters/{alias}/groups/{groupId}');
    expect(START_DOCS.loaded()).toBeDefined();
    // The document was made from an app of its own; this one still describes no mirror.
    expect(mirrored(app)).toBe(0);
  });

  it('made after the document was asked for, describes no mirror either', async () => {
    await (await standInApp().request('/openapi.json')).text();
    expect(START_DOCS.loaded()).toBeDefined();
    // A runtime that makes an app per request (Workers) pays for none of the document's mirrors.
    expect(mirrored(standInApp())).toBe(0);
  });
});

describe("an app's router", () => {
  it("is the TrieRouter that Hono's default router would settle on at the first request, built at once", () => {
    const app = standInApp();
    expect(app.router.name).toBe('TrieRouter');
    // Hono's default (RegExpRouter, else TrieRouter), fed the same routes, ends with the TrieRouter:
    // the RegExpRouter refuses a static segment beside a parameter (/groups/describe beside
    // /groups/:groupId/members/remove). So every request is routed as before, without the attempt.
    const smart = new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] });
    for (const r of app.routes) smart.add(r.method, r.path, r.handler);
    expect(smart.match('GET', '/groups/g1')[0].length).toBeGreaterThan(0);
    expect(smart.activeRouter.name).toBe('TrieRouter');
  });
});
