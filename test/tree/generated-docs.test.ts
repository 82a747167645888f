/**
 * docs/configuration.md and docs/problems.md, and the route tables of README.md and docs/api.md, are
 * generated from the code and the OpenAPI document (`npm run docs`): this regenerates them in memory,
 * without a broker, and fails while a committed page differs.
 */

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DOCS_FILES, generateDocs, ROOT } from '../../scripts/generate-docs.js';

it('has the generated pages and route tables as the code generates them (npm run docs)', async () => {
  const fresh = await generateDocs();
  const stale: string[] = [];
  for (const file of DOCS_FILES) {
    const committed = await readFile(join(ROOT, file), 'utf8').catch(() => undefined);
    if (committed !== fresh[file]) stale.push(file);
  }
  expect(stale, 'run `npm run docs` and commit the pages').toEqual([]);
});
