/**
 * The three-node cluster that the files of test/cluster share. They run one after another in one
 * worker process (project `kafka-alone`: one worker, files not isolated), so the first file starts the
 * cluster and the others find it here: one cluster start a run rather than one a file. Each file
 * takes it as its faults left it and hands it back whole: every node running, none paused, every
 * node answering. The nodes end with the worker process (their standard input is its pipe), and the
 * cluster's exit handler removes their data.
 */
import { type RunningCluster, startCluster } from '../broker-harness/cluster.js';

const KEY = Symbol.for('kafka-groups-rest.test-cluster');
const holder = globalThis as { [KEY]?: Promise<RunningCluster> };

/** Every node running and answering again (after a file that paused or killed some). */
async function whole(cluster: RunningCluster): Promise<void> {
  for (const node of cluster.nodes) if (node.state() === 'paused') node.resume();
  await Promise.all(cluster.nodes.filter((n) => n.state() === 'stopped').map((n) => n.start()));
  await cluster.waitUntilReady(180_000);
}

/** The shared cluster, started on first use, whole. A file's afterAll hands it back (`handBack`). */
export async function sharedCluster(): Promise<RunningCluster> {
  let started = holder[KEY];
  if (!started) {
    started = startCluster({ readyTimeoutMs: 300_000 });
    holder[KEY] = started;
    started.catch(() => {
      if (holder[KEY] === started) delete holder[KEY];
    });
  }
  const cluster = await started;
  await whole(cluster);
  return cluster;
}

/** For a file's afterAll, in place of stopping the cluster: whole again for the next file. */
export async function handBack(cluster: RunningCluster | undefined): Promise<void> {
  if (cluster) await whole(cluster);
}
