/**
 * The Worker as `wrangler deploy` bundles it, run in workerd (Miniflare) against the test broker,
 * beside the groups its test reads: the bundle and the fixtures are made at once. The bindings
 * are the test's; the broker's address comes first so a test can still override it.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Miniflare } from 'miniflare';
import { inject } from 'vitest';
import { buildWorker } from '../../scripts/build.js';
import { type FixtureOptions, type RunningFixtures, startFixtures } from '../broker-harness/fixtures.js';

export interface RunningWorker {
  mf: Miniflare;
  /** The bundled script. */
  scriptPath: string;
  fixtures: RunningFixtures;
  /** The bundle's size, raw and gzipped. */
  bundle: { bytes: number; gzipBytes: number };
  /** Restarts the Worker with other bindings (the broker's address unless they name another). */
  rebind(bindings: Record<string, string>): Promise<void>;
  /** Disposes of workerd, stops the fixtures and removes the bundle. */
  close(): Promise<void>;
}

function optionsOf(scriptPath: string, bindings: Record<string, string>) {
  return {
    modules: true,
    scriptPath,
    modulesRoot: dirname(scriptPath),
    compatibilityDate: '2026-04-01',
    compatibilityFlags: ['nodejs_compat'],
    bindings: { KAFKA_BROKERS: inject('kafkaBrokers'), ...bindings },
  };
}

export async function startWorker(
  name: string,
  fixtures: Omit<FixtureOptions, 'bootstrap'>,
  bindings: Record<string, string>,
): Promise<RunningWorker> {
  // Wrangler asks the network for nothing in a test.
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false';
  process.env.WRANGLER_SEND_METRICS = 'false';
  const outdir = await mkdtemp(join(tmpdir(), `kgr-${name}-`));
  const [bundle, running] = await Promise.all([
    buildWorker(outdir),
    startFixtures({ bootstrap: inject('kafkaBrokers'), ...fixtures }),
  ]);
  const scriptPath = join(outdir, 'index.js');
  const mf = new Miniflare(optionsOf(scriptPath, bindings));
  try {
    await mf.ready;
  } catch (error) {
    await Promise.allSettled([mf.dispose(), running.stop()]);
    throw error;
  }
  return {
    mf,
    scriptPath,
    fixtures: running,
    bundle: { bytes: bundle.bytes, gzipBytes: bundle.gzipBytes },
    rebind: async (other) => {
      await mf.setOptions(optionsOf(scriptPath, other));
    },
    close: async () => {
      await mf.dispose();
      await running.stop();
      await rm(outdir, { recursive: true, force: true });
    },
  };
}
