/**
 * The document only grows within a major version: today's (sdk/openapi.json, which test/tree/sdk
 * keeps equal to the served /openapi.json) against the newest released one in sdk/releases/, judged
 * by OpenAPITools' openapi-diff (test/clients/document-compat.ts). It needs Java and Maven, not the
 * broker, which is why it sits among the broker files: the unit loop runs without Java.
 *
 * The planted changes show the judge can fail: an operation removed, a response field removed, a
 * parameter narrowed (a smaller maximum, a narrower type, an enum value gone), an optional input
 * made required. What openapi-diff 2.1.7 does not see, tried by planting each (docs/api.md, "What
 * 1.x promises"): a change inside one variant of a discriminated oneOf (a group type's own fields),
 * an enum value gone from an array parameter's items, a larger minLength on a parameter.
 */

import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { compatibility, releasedDocument, releases } from '../clients/document-compat.js';

// biome-ignore lint/suspicious/noExplicitAny: the planted changes walk a JSON document by hand
type Doc = Record<string, any>;

let today: Doc;
let newest: string;

beforeAll(async () => {
  today = JSON.parse(await readFile(new URL('../../sdk/openapi.json', import.meta.url), 'utf8'));
  const versions = await releases();
  newest = versions.at(-1) ?? '';
}, 300_000);

const planted = (change: (doc: Doc) => void): Doc => {
  const doc = structuredClone(today);
  change(doc);
  return doc;
};
const param = (doc: Doc, path: string, name: string): Doc =>
  doc.paths[path].get.parameters.find((p: Doc) => p.name === name);

describe('the OpenAPI document against its last release', () => {
  it('is the document of the version it names, or only adds to the release before it', async () => {
    const [major, minor] = String(today.info.version).split('.').map(Number);
    const [releasedMajor, releasedMinor] = newest.split('.').map(Number);
    expect(major, `sdk/releases/${newest}.json is the newest release`).toBe(releasedMajor);
    expect(minor).toBeGreaterThanOrEqual(releasedMinor ?? 0);
  });

  it('breaks nothing a client generated from the last release uses', async () => {
    const { breaking, report } = await compatibility(await releasedDocument(newest), today);
    expect(breaking, report).toEqual([]);
  }, 240_000);

  it('knows what 1.1 broke for clients of 1.0 (CHANGELOG.md)', async () => {
    const { breaking } = await compatibility(
      await releasedDocument('1.0.0'),
      await releasedDocument('1.1.0'),
    );
    expect(breaking.sort()).toEqual(
      [
        // The 200 of GET /groups lost application/x-ndjson: the stream became GET /groups.ndjson.
        'breaks GET /clusters/{alias}/groups: response',
        'breaks GET /groups: response',
        // DELETE …/offsets' topic took the pattern every other topic parameter has.
        'breaks DELETE /clusters/{alias}/groups/{groupId}/offsets: parameters',
        'breaks DELETE /groups/{groupId}/offsets: parameters',
      ].sort(),
    );
  }, 240_000);

  it('fails on planted removals: an operation, a response field', async () => {
    const removed = planted((doc) => {
      delete doc.paths['/groups/{groupId}/health'];
      const page = doc.components.schemas.GroupPage;
      delete page.properties.nextCursor;
      page.required = page.required.filter((name: string) => name !== 'nextCursor');
    });
    const { breaking } = await compatibility(today, removed);
    expect(breaking).toContain('removed GET /groups/{groupId}/health');
    expect(breaking).toContain('breaks GET /groups: response');
  }, 240_000);

  // Each change alone, so that no one hides behind another.
  it.each([
    [
      'a smaller maximum',
      (doc: Doc) => Object.assign(param(doc, '/groups', 'limit').schema, { maximum: 500 }),
    ],
    [
      'a type narrowed',
      (doc: Doc) => Object.assign(param(doc, '/groups', 'limit'), { schema: { type: 'boolean' } }),
    ],
    [
      'an enum value gone',
      (doc: Doc) => Object.assign(param(doc, '/groups', 'isolation').schema, { enum: ['read_uncommitted'] }),
    ],
    [
      'an optional input made required',
      (doc: Doc) => Object.assign(param(doc, '/groups', 'prefix'), { required: true }),
    ],
  ])(
    'fails on a planted narrowing: %s',
    async (_what, change) => {
      const { breaking } = await compatibility(today, planted(change));
      expect(breaking).toEqual(['breaks GET /groups: parameters']);
    },
    240_000,
  );
});
