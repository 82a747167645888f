/**
 * Follows every page of GET /groups?limit=1000 in-process, three times, then times one page in
 * the middle; for profiling the listing path against a broker that already holds the groups:
 *
 *   KAFKA_BROKERS=127.0.0.1:9092 node --cpu-prof --cpu-prof-dir=prof --import tsx bench/profile-list.ts [cursorId]
 */

import { performance } from 'node:perf_hooks';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { securityFrom } from '../src/http/security.js';
import { encodeCursor } from '../src/routes/paging.js';
import { createService } from '../src/wiring.js';

const config = loadConfig({ AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0', ...process.env });
const service = createService(config);
const app = createApp({ service: service.groups, security: securityFrom(config) });

async function walk() {
  let cursor: string | null = null;
  let groups = 0;
  let pages = 0;
  const start = performance.now();
  do {
    const res = await app.request(`/groups?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
    const body = (await res.json()) as { groups: unknown[]; nextCursor: string | null };
    groups += body.groups.length;
    cursor = body.nextCursor;
    pages++;
  } while (cursor);
  return { groups, pages, ms: Math.round(performance.now() - start) };
}

await walk();
for (let i = 0; i < 3; i++) console.log('all pages', JSON.stringify(await walk()));
const middle = encodeCursor(process.argv[2] ?? 'g0010000');
const samples: number[] = [];
for (let i = 0; i < 10; i++) {
  const start = performance.now();
  await (await app.request(`/groups?limit=1000&cursor=${middle}`)).json();
  samples.push(performance.now() - start);
}
console.log('one page of 1000 (ms)', samples.map((s) => s.toFixed(1)).join(' '));
await service.close();
