/**
 * sdk/ is generated from the OpenAPI document (`npm run sdk`): this regenerates it in memory, without
 * a broker, and fails while a committed file differs. The client itself is tried against the real
 * broker in test/integration/sdk.test.ts.
 */

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { generateSdk, SDK_DIR, SDK_FILES } from '../../scripts/generate-sdk.js';

it('has sdk/ up to date with the OpenAPI document the app serves', async () => {
  const fresh = await generateSdk();
  const stale: string[] = [];
  for (const name of SDK_FILES) {
    const committed = await readFile(join(SDK_DIR, name), 'utf8').catch(() => undefined);
    if (committed !== fresh[name]) stale.push(`sdk/${name}`);
  }
  expect(
    stale,
    `${stale.join(', ')} out of date with src/: run \`npm run sdk\` and commit the result`,
  ).toEqual([]);
});
