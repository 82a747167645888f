/**
 * The writes, loaded on the first one: their code (deletes, member removal, the offset reset and
 * the codecs only they use) stays out of what a start loads, since most requests only read.
 */

import type { GroupWrites } from './group-writes.js';

const loaders = new WeakMap<GroupWrites, () => Promise<GroupWrites>>();

/**
 * The writes behind a lazy front, loading them if need be (a fault test wraps what they send);
 * any other writes as they are.
 */
export function loadedWrites(writes: GroupWrites): Promise<GroupWrites> {
  return loaders.get(writes)?.() ?? Promise.resolve(writes);
}

export function lazyWrites(load: () => Promise<GroupWrites>): GroupWrites {
  let loaded: Promise<GroupWrites> | undefined;
  const writes = () => {
    loaded ??= load();
    return loaded;
  };
  const front: GroupWrites = {
    committedOffsets: async (...a) => (await writes()).committedOffsets(...a),
    deleteGroup: async (...a) => (await writes()).deleteGroup(...a),
    deleteOffsets: async (...a) => (await writes()).deleteOffsets(...a),
    removeMembers: async (...a) => (await writes()).removeMembers(...a),
    atCoordinator: async (groupId, options, call) => (await writes()).atCoordinator(groupId, options, call),
    planReset: async (...a) => (await writes()).planReset(...a),
    applyReset: async (...a) => (await writes()).applyReset(...a),
  };
  loaders.set(front, writes);
  return front;
}
