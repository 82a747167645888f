/**
 * The writes, loaded on the first one: their code (deletes, member removal, the offset reset and
 * the codecs only they use) stays out of what a start loads, since most requests only read.
 */

import type { GroupWrites } from './service.js';

export function lazyWrites(load: () => Promise<GroupWrites>): GroupWrites {
  let loaded: Promise<GroupWrites> | undefined;
  const writes = () => {
    loaded ??= load();
    return loaded;
  };
  return {
    committedOffsets: async (...a) => (await writes()).committedOffsets(...a),
    deleteGroup: async (...a) => (await writes()).deleteGroup(...a),
    deleteOffsets: async (...a) => (await writes()).deleteOffsets(...a),
    removeMembers: async (...a) => (await writes()).removeMembers(...a),
    atCoordinator: async (groupId, call) => (await writes()).atCoordinator(groupId, call),
    planReset: async (...a) => (await writes()).planReset(...a),
    applyReset: async (...a) => (await writes()).applyReset(...a),
  };
}
