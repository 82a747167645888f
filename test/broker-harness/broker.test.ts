/**
 * Smoke test of the test broker and the group fixtures, against the broker of the global setup.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { describe, expect, inject, it } from 'vitest';
import { isAlive } from './broker.js';
import { versionAtLeast } from './fetch.js';
import { type GroupSpec, startFixtures, uniqueName } from './fixtures.js';
import { javaAdminListGroups } from './java-admin.js';

const bootstrap = inject('kafkaBrokers');
const version = inject('kafkaVersion');
/** Share and streams groups need 4.1+ (preview there, on by default from 4.2); 3.x has neither. */
const hasNewGroupTypes = !/^\d+\.\d+/.test(version) || versionAtLeast(version, 4, 1);

describe('test broker', () => {
  it('fixtures create live groups of every type that ListGroups reports', { timeout: 180_000 }, async () => {
    const topic = uniqueName('smoke');
    const suffix = topic.slice('smoke-'.length);
    const groups: GroupSpec[] = [
      // A group id that needs care on the wire and in URLs.
      {
        type: 'classic',
        groupId: `smoke classic/ü ✓ ${suffix}`,
        topics: [{ name: topic, partitions: 2, records: 5 }],
        members: 2,
        commit: 2,
      },
      { type: 'consumer', groupId: `smoke-consumer-${suffix}`, topics: [topic], commit: 1 },
      { type: 'empty', groupId: `smoke-empty-${suffix}`, topics: [topic], commit: 3 },
    ];
    if (hasNewGroupTypes) {
      groups.push(
        { type: 'share', groupId: `smoke-share-${suffix}`, topics: [topic] },
        { type: 'streams', groupId: `smoke-streams-${suffix}`, topics: [topic] },
      );
    }
    const expectedProtocolType: Record<GroupSpec['type'], string> = {
      classic: 'consumer',
      consumer: 'consumer',
      empty: '',
      share: 'share',
      streams: 'streams',
    };

    const fixtures = await startFixtures({ bootstrap, groups });
    try {
      const listed = await javaAdminListGroups(bootstrap);
      for (const g of groups) {
        expect(listed.has(g.groupId), `group ${g.type} ${JSON.stringify(g.groupId)} is listed`).toBe(true);
        expect(listed.get(g.groupId), `protocol type of ${g.type} group`).toBe(expectedProtocolType[g.type]);
      }
    } finally {
      await fixtures.stop();
    }
  });

  it('a broker whose owner dies (SIGKILL) stops: the launcher exits when its stdin closes', {
    timeout: 120_000,
  }, async () => {
    // The owner: a separate Node process that starts a broker through the API and then idles.
    const brokerModule = new URL('./broker.ts', import.meta.url).href;
    const script = `
        const { startBroker } = await import(${JSON.stringify(brokerModule)});
        const b = await startBroker({ readyTimeoutMs: 90000 });
        console.log(JSON.stringify({ pid: b.pid, dataDir: b.dataDir }));
        setInterval(() => {}, 1 << 30);
      `;
    const owner = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: owner.stdout as NodeJS.ReadableStream }).once('line', resolve);
      owner.once('exit', (code) => reject(new Error(`the owner exited early (code ${code})`)));
    });
    const { pid, dataDir } = JSON.parse(line) as { pid: number; dataDir: string };
    try {
      expect(isAlive(pid)).toBe(true);
      owner.kill('SIGKILL');
      const until = Date.now() + 45_000;
      while (isAlive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(isAlive(pid), `JVM ${pid} is gone after its owner was killed`).toBe(false);
    } finally {
      owner.kill('SIGKILL');
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
