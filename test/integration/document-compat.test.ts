/**
 * The document only grows within a major version: today's (sdk/openapi.json, which test/tree/sdk
 * keeps equal to the served /openapi.json) against the newest released one in sdk/releases/, judged
 * by OpenAPITools' openapi-diff (test/clients/document-compat.ts). It needs Java and Maven, not the
 * broker, which is why it sits among the broker files: the unit loop runs without Java.
 *
 * The planted changes show the judge can fail: an operation removed, a response field removed, a
 * parameter narrowed (a smaller maximum, a narrower type, an enum value gone), an optional input
 * made required, a field removed from one member of a union (the tool compares no member of a
 * oneOf or anyOf, so test/clients/document-compat.ts gives each one an operation of its own,
 * `/x-variant/<Name>`, in both documents). What it still does not see, tried by planting each
 * (docs/api.md): an enum value gone from an array parameter's items, a larger minLength on a
 * parameter.
 */

import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Compatibility,
  compatibilities,
  compatibility,
  releasedDocument,
  releases,
} from '../clients/document-compat.js';

// biome-ignore lint/suspicious/noExplicitAny: the planted changes walk a JSON document by hand
type Doc = Record<string, any>;

let today: Doc;
let newest: string;

beforeAll(async () => {
  today = JSON.parse(await readFile(new URL('../../sdk/openapi.json', import.meta.url), 'utf8'));
  const versions = await releases();
  newest = versions.at(-1) ?? '';
  const names = Object.keys(PLANTED);
  const judged = await compatibilities(
    today,
    names.map((name) => planted(PLANTED[name] ?? (() => undefined))),
  );
  names.forEach((name, i) => {
    const one = judged[i];
    if (one) verdicts.set(name, one);
  });
}, 400_000);

const planted = (change: (doc: Doc) => void): Doc => {
  const doc = structuredClone(today);
  change(doc);
  return doc;
};
const param = (doc: Doc, path: string, name: string): Doc =>
  doc.paths[path].get.parameters.find((p: Doc) => p.name === name);

/** Today's document with one planted change each, judged against today's in one run of the tool. */
const PLANTED: Record<string, (doc: Doc) => void> = {
  removals: (doc) => {
    delete doc.paths['/groups/{groupId}/health'];
    const page = doc.components.schemas.GroupPage;
    delete page.properties.nextCursor;
    page.required = page.required.filter((name: string) => name !== 'nextCursor');
  },
  'a union member': (doc) => {
    const classic = doc.components.schemas.ClassicGroup;
    delete classic.properties.assignor;
    classic.required = classic.required.filter((name: string) => name !== 'assignor');
  },
  'a smaller maximum': (doc) => {
    param(doc, '/groups', 'limit').schema.maximum = 500;
  },
  'a type narrowed': (doc) => {
    param(doc, '/groups', 'limit').schema = { type: 'boolean' };
  },
  'an enum value gone': (doc) => {
    param(doc, '/groups', 'isolation').schema.enum = ['read_uncommitted'];
  },
  'an optional input made required': (doc) => {
    param(doc, '/groups', 'prefix').required = true;
  },
};
const verdicts = new Map<string, Compatibility>();
const verdict = (what: string): Compatibility => {
  const found = verdicts.get(what);
  if (!found) throw new Error(`no verdict for ${what}`);
  return found;
};

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
        // The 200 of GET /groups lost application/x-ndjson: the stream became GET /groups.ndjson,
        // and with it the union of a page and a line whose member GroupListing was.
        'breaks GET /clusters/{alias}/groups: response',
        'breaks GET /groups: response',
        'removed GET /x-variant/GroupListing',
        // DELETE …/offsets' topic took the pattern every other topic parameter has.
        'breaks DELETE /clusters/{alias}/groups/{groupId}/offsets: parameters',
        'breaks DELETE /groups/{groupId}/offsets: parameters',
      ].sort(),
    );
  }, 240_000);

  it('fails on planted removals: an operation, a response field', () => {
    const { breaking } = verdict('removals');
    expect(breaking).toContain('removed GET /groups/{groupId}/health');
    expect(breaking).toContain('breaks GET /groups: response');
  });

  it('fails on a field removed from one group type, a member of the Group union', () => {
    expect(verdict('a union member').breaking).toEqual(['breaks GET /x-variant/ClassicGroup: response']);
  });

  // Each change alone, so that no one hides behind another.
  it.each(['a smaller maximum', 'a type narrowed', 'an enum value gone', 'an optional input made required'])(
    'fails on a planted narrowing: %s',
    (what) => {
      expect(verdict(what).breaking).toEqual(['breaks GET /groups: parameters']);
    },
  );
});
