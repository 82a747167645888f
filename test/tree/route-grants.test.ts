/**
 * Every operation of the document is open to some grant. With authentication on, a route that was
 * never given its grant action is closed to every principal (403 "not open to any grant"): this
 * asks each operation once, as a principal granted every action on every group, and fails on that
 * 403. No broker: the service throws, so a request that passes the guards ends in a 400 or a 500,
 * which is all this needs to know.
 */

import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/generate-sdk.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { GroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';

const KEY = 'route-grants-test-key';
/** Every grant action there is: reads, and each write on its own. */
const ALL_ACTIONS = ['read', 'offsets', 'reset-offsets', 'delete-offsets', 'delete', 'remove-members'];
const sha256 = createHash('sha256').update(KEY).digest('hex');
const config = loadConfig({
  AUTH_API_KEYS: `all:${sha256}`,
  AUTH_GRANTS: JSON.stringify({ all: { groups: '*', actions: ALL_ACTIONS } }),
  WRITES: 'enabled',
  RATE_LIMIT_PER_MINUTE: '0',
});
const noBroker = (): never => {
  throw new Error('no broker in this test');
};
const service = new Proxy({} as GroupService, { get: () => noBroker });
const app = createApp({ service, security: securityFrom(config) });

type Operation = { path: string; method: string };
const document = JSON.parse(await openApiDocument()) as { paths: Record<string, Record<string, unknown>> };
const operations: Operation[] = Object.entries(document.paths).flatMap(([path, item]) =>
  ['get', 'post', 'delete', 'put', 'patch'].filter((m) => m in item).map((method) => ({ path, method })),
);

it.each(operations)('$method $path is open to a principal granted every action', async ({ path, method }) => {
  const url = path.replace('{alias}', 'default').replace(/\{[^}]+\}/g, 'x');
  const res = await app.request(url, {
    method: method.toUpperCase(),
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(method === 'post' && { body: '{}' }),
  });
  const body = await res.text();
  expect(res.status === 403 && body.includes('not open to any grant'), body).toBe(false);
  expect(res.status).not.toBe(401);
});
