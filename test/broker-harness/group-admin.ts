/**
 * Feature levels, group configs and a streams group's topology description as Kafka's own Java
 * Admin client reads them (GroupAdmin.java).
 */

import { runJavaClient } from './java-client.js';

async function groupAdmin(bootstrap: string, operation: string[], timeoutMs = 60_000): Promise<string[]> {
  const { stdout, failure } = await runJavaClient(
    'GroupAdmin.java',
    ['--bootstrap', bootstrap, ...operation],
    'group-admin',
    `Java Admin ${operation.join(' ')}`,
    timeoutMs,
  );
  const lines = stdout.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.at(-1) !== 'DONE') throw failure(`output does not end with DONE\n--- stdout ---\n${stdout}`);
  return lines.slice(0, -1);
}

export interface JavaFeatures {
  /** name → [min level, max level] */
  finalized: Map<string, [number, number]>;
  /** -1 when the cluster reports none. */
  epoch: number;
}

/** Admin.describeFeatures: the finalized feature levels. */
export async function javaAdminFeatures(bootstrap: string): Promise<JavaFeatures> {
  const out: JavaFeatures = { finalized: new Map(), epoch: -1 };
  for (const line of await groupAdmin(bootstrap, ['features'])) {
    const f = line.split(' ');
    if (f[0] === 'FINALIZED' && f.length === 4)
      out.finalized.set(f[1] as string, [Number(f[2]), Number(f[3])]);
    else if (f[0] === 'EPOCH' && f.length === 2) out.epoch = Number(f[1]);
    else throw new Error(`unexpected line ${JSON.stringify(line)}`);
  }
  return out;
}

export interface JavaConfigEntry {
  value: string | null;
  /** ConfigEntry.ConfigSource, e.g. DYNAMIC_GROUP_CONFIG, DEFAULT_CONFIG */
  source: string;
  sensitive: boolean;
  readOnly: boolean;
}

/** Admin.describeConfigs on the GROUP resource `groupId`: name → entry. */
export async function javaAdminGroupConfigs(
  bootstrap: string,
  groupId: string,
): Promise<Map<string, JavaConfigEntry>> {
  const out = new Map<string, JavaConfigEntry>();
  for (const line of await groupAdmin(bootstrap, ['describe-configs', groupId])) {
    const f = line.split(' ');
    if (f[0] !== 'CONFIG' || f.length !== 6) throw new Error(`unexpected line ${JSON.stringify(line)}`);
    out.set(f[1] as string, {
      source: f[2] as string,
      sensitive: f[3] === 'true',
      readOnly: f[4] === 'true',
      value: f[5] === '-' ? null : Buffer.from(f[5] as string, 'base64').toString('utf8'),
    });
  }
  return out;
}

/** Admin.incrementalAlterConfigs: sets `name` to `value` on the GROUP resource `groupId`. */
export async function javaAdminSetGroupConfig(
  bootstrap: string,
  groupId: string,
  name: string,
  value: string,
): Promise<void> {
  await groupAdmin(bootstrap, ['set-config', groupId, name, value]);
}

/** A topology node as the Admin client describes it, its lists sorted ('-' lists are empty). */
export interface JavaTopologyNode {
  subtopologyId: string;
  nodeType: 'source' | 'processor' | 'sink';
  name: string;
  sourceTopics: string[];
  sinkTopic: string | null;
  stores: string[];
  successors: string[];
}

export interface JavaTopologyDescription {
  /** StreamsGroupTopologyDescriptionStatus: NOT_REQUESTED, NOT_STORED, ERROR, AVAILABLE. */
  status: string;
  nodes: JavaTopologyNode[];
  globalStores: { source: string; topics: string[]; processor: string; stores: string[] }[];
}

/** Admin.describeStreamsGroups with includeTopologyDescription: `groupId`'s topology description. */
export async function javaAdminStreamsTopology(
  bootstrap: string,
  groupId: string,
): Promise<JavaTopologyDescription> {
  const list = (s: string | undefined) => (s === undefined || s === '-' ? [] : s.split(','));
  const out: JavaTopologyDescription = { status: '', nodes: [], globalStores: [] };
  for (const line of await groupAdmin(bootstrap, ['streams-topology', groupId])) {
    const f = line.split(' ');
    if (f[0] === 'STATUS' && f.length === 2) out.status = f[1] as string;
    else if (f[0] === 'NODE' && f.length === 8)
      out.nodes.push({
        subtopologyId: f[1] as string,
        nodeType: f[2] as JavaTopologyNode['nodeType'],
        name: f[3] as string,
        sourceTopics: list(f[4]),
        sinkTopic: f[5] === '-' ? null : (f[5] as string),
        stores: list(f[6]),
        successors: list(f[7]),
      });
    else if (f[0] === 'GLOBAL' && f.length === 5)
      out.globalStores.push({
        source: f[1] as string,
        topics: list(f[2]),
        processor: f[3] as string,
        stores: list(f[4]),
      });
    else throw new Error(`unexpected line ${JSON.stringify(line)}`);
  }
  return out;
}
