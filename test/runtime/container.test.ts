/**
 * What the Dockerfile's image relies on, without a container runtime (no base image can be pulled
 * here): the bundle `npm run build` makes, copied alone into an empty directory owned by root, run
 * by the image's CMD as an unprivileged user (setpriv to nobody) who cannot write there. It serves
 * the real broker, answers the Dockerfile's HEALTHCHECK, and on SIGTERM with a request in flight
 * answers it and exits 0 within the 10 s grace period. The Dockerfile itself is checked for what
 * it promises: an exact Node 20 tag, only dist/node, a numeric non-root user, STOPSIGNAL SIGTERM.
 */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmod, cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildNode } from '../../scripts/build.js';
import { HOLD_MS, HoldingRelay, settleAfterDrop } from '../support/holding-relay.js';
import { startServerProcess } from '../support/server-process.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NOBODY = 65534;
const AS_NOBODY = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'] as const;
const GRACE_MS = 10_000;

/** The JSON array of an exec-form instruction (`CMD [...]`, `HEALTHCHECK ... CMD [...]`). */
function execForm(dockerfile: string, instruction: RegExp): string[] {
  const line = dockerfile.split('\n').find((l) => instruction.test(l));
  if (!line) throw new Error(`no ${instruction} in the Dockerfile`);
  return JSON.parse(line.slice(line.indexOf('['))) as string[];
}

let dockerfile: string;
let work: string;
let app: string;
let relay: HoldingRelay;
let server: ChildProcess;
let base: string;
const canSwitchUser = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;

beforeAll(async () => {
  dockerfile = await readFile(join(ROOT, 'Dockerfile'), 'utf8');
  if (!canSwitchUser) return;
  work = await mkdtemp(join(tmpdir(), 'kgr-image-'));
  const built = join(work, 'build');
  await buildNode(built);
  // The image's /app: dist/node alone, owned by root, readable by all, writable by none but root.
  app = join(work, 'app');
  await mkdir(app);
  await cp(built, app, { recursive: true });
  await rm(built, { recursive: true });
  await chmod(work, 0o755);
  spawnSync('chmod', ['-R', 'u=rwX,go=rX', app]);
  const [host, port] = inject('kafkaBrokers').split(',')[0]?.split(':') ?? [];
  relay = await HoldingRelay.start({ host: host ?? '127.0.0.1', port: Number(port) });
  const [node, ...args] = execForm(dockerfile, /^CMD /);
  expect(node).toBe('node');
  const started = await startServerProcess(args, {
    cwd: app,
    env: {
      KAFKA_BROKERS: `127.0.0.1:${relay.port}`,
      AUTH: 'none',
      HOME: '/nonexistent',
      NODE_ENV: 'production',
    },
    wrap: AS_NOBODY,
  });
  server = started.child;
  base = started.url;
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  await relay?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the Dockerfile', () => {
  it('pins an exact Node 20 tag, copies only dist/node, runs as a numeric non-root user, stops on SIGTERM', () => {
    const instructions = dockerfile
      .split('\n')
      .filter((l) => /^[A-Z]+\s/.test(l))
      .map((l) => l.split(/\s+/, 1)[0]);
    expect(dockerfile).toMatch(/^FROM node:20\.\d+\.\d+-bookworm-slim$/m);
    expect(dockerfile.match(/^COPY .*$/gm)).toEqual(['COPY --chown=0:0 dist/node/ ./']);
    expect(instructions).not.toContain('ADD');
    expect(instructions).not.toContain('RUN');
    const user = /^USER (\d+):(\d+)$/m.exec(dockerfile);
    expect(Number(user?.[1])).toBeGreaterThan(0);
    expect(dockerfile).toMatch(/^STOPSIGNAL SIGTERM$/m);
  });
});

describe.skipIf(!canSwitchUser)('dist/node alone, as an unprivileged user without write access', () => {
  it('cannot write to its directory (the premise of a read-only filesystem)', () => {
    const touch = spawnSync(AS_NOBODY[0], [...AS_NOBODY.slice(1), 'touch', join(app, 'written')]);
    expect(touch.status).not.toBe(0);
    expect(String(touch.stderr)).toMatch(/Permission denied/);
  });

  it('runs as that user and serves the real broker and the docs assets', async () => {
    const status = await readFile(`/proc/${server.pid}/status`, 'utf8');
    expect(/^Uid:\s+(\d+)/m.exec(status)?.[1]).toBe(String(NOBODY));
    const res = await fetch(`${base}/cluster`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ clusterId: expect.any(String) });
    const css = await fetch(`${base}/docs/assets/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect(await css.text()).toContain('.swagger-ui');
    // Read whole: a scrape's reads go on until its last line, and none may still run when a later
    // test holds the broker's next Metadata answer.
    const scrape = await fetch(`${base}/metrics?maxSeries=1`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toMatch(/^kafka_group_series_limit_reached /m);
  });

  it("answers the Dockerfile's HEALTHCHECK command", async () => {
    const [command, ...args] = execForm(dockerfile, /^HEALTHCHECK /);
    expect(command).toBe('node');
    const port = new URL(base).port;
    const check = spawn(AS_NOBODY[0], [...AS_NOBODY.slice(1), process.execPath, ...args], {
      cwd: app,
      env: { PATH: process.env.PATH, PORT: port },
      stdio: 'ignore',
    });
    expect((await once(check, 'exit'))[0]).toBe(0);
    const wrong = spawn(AS_NOBODY[0], [...AS_NOBODY.slice(1), process.execPath, ...args], {
      cwd: app,
      env: { PATH: process.env.PATH, PORT: '1' },
      stdio: 'ignore',
    });
    expect((await once(wrong, 'exit'))[0]).toBe(1);
  });

  it('stand-in: SIGTERM with a request in flight → it is answered, then exit 0 within the grace period', async () => {
    // The answer held is the readiness Metadata's (API key 3), the one `/readyz` waits on.
    relay.dropConnections();
    await settleAfterDrop();
    const held = relay.arm(3);
    // Readiness asks every broker it knows, the relay too, even while another answers faster.
    const pending = fetch(`${base}/readyz`);
    await held;
    const exited = once(server, 'exit');
    const signalled = Date.now();
    server.kill('SIGTERM');
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'ok',
      brokers: expect.arrayContaining([expect.objectContaining({ answered: true })]),
    });
    const [code] = await exited;
    expect(code).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(HOLD_MS - 100);
    expect(Date.now() - signalled).toBeLessThan(GRACE_MS);
  });
});
