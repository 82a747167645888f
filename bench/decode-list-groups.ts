/**
 * Decode time of one ListGroups v5 answer of 100,000 groups, the codec alone (no broker):
 *
 *   npx tsx bench/decode-list-groups.ts [groups]
 */

import { performance } from 'node:perf_hooks';
import { ListGroups } from '../src/broker/protocol/messages/list-groups.js';

const count = Number(process.argv[2] ?? 100_000);
const body = ListGroups.encodeResponse(5, {
  throttleTimeMs: 0,
  errorCode: 0,
  groups: Array.from({ length: count }, (_, i) => ({
    groupId: `bench-${String(i).padStart(7, '0')}`,
    protocolType: i % 2 ? 'consumer' : '',
    groupState: i % 3 ? 'Empty' : 'Stable',
    groupType: 'classic',
  })),
});
const samples: number[] = [];
for (let i = 0; i < 30; i++) {
  const start = performance.now();
  const decoded = ListGroups.decodeResponse(5, body);
  samples.push(performance.now() - start);
  if (decoded.groups.length !== count) throw new Error('wrong count');
}
samples.sort((a, b) => a - b);
console.log(
  `ListGroups v5, ${count} groups, ${(body.byteLength / 1e6).toFixed(1)} MB: median ${samples[15]?.toFixed(1)} ms, best ${samples[0]?.toFixed(1)} ms`,
);
