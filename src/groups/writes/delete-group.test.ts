/**
 * DeleteGroups answers → what deleteGroup throws, over a scripted coordinator connection (Kafka
 * answers GROUP_DELETION_FAILED only when a broker plugin fails, which a test broker does not do).
 */

import { describe, expect, it } from 'vitest';
import { NO_DEADLINE } from '../../broker/deadline.js';
import { KafkaResponseError } from '../../broker/errors.js';
import type { DeleteGroupsResponse } from '../../broker/protocol/messages/delete-groups.js';
import type { KafkaCluster } from '../../broker/transport/cluster.js';
import type { Coordinators } from '../coordinators.js';
import { GroupNotFoundError } from '../errors.js';
import { GroupDeletionFailedError } from './errors.js';
import { KafkaGroupWrites } from './group-writes.js';

const BROKER = { nodeId: 1, host: '127.0.0.1', port: 9092 };

function writesAnswering(response: DeleteGroupsResponse): KafkaGroupWrites {
  const connection = { label: '127.0.0.1:9092', send: async () => ({ version: 3, response }) };
  const cluster = { connection: () => connection } as unknown as KafkaCluster;
  const coordinators = {
    forEachCoordinator: (ids: string[], call: (ref: typeof BROKER, ids: string[]) => unknown) =>
      call(BROKER, ids),
  } as unknown as Coordinators;
  return new KafkaGroupWrites(cluster, coordinators, async () => {
    throw new Error('no describe expected');
  });
}

const result = (errorCode: number, errorMessage: string | null) => ({
  throttleTimeMs: 0,
  results: [{ groupId: 'g', errorCode, errorMessage }],
});

describe('deleteGroup', () => {
  it('maps GROUP_DELETION_FAILED (134) with Kafka’s per-group message', async () => {
    const message = 'Topology description plugin failed to delete the topology.';
    const error = await writesAnswering(result(134, message))
      .deleteGroup('g', NO_DEADLINE)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GroupDeletionFailedError);
    expect(error).toMatchObject({
      groupId: 'g',
      broker: '127.0.0.1:9092',
      kafkaError: { code: 134, name: 'GROUP_DELETION_FAILED', message },
    });
    expect((error as Error).message).toContain(message);
  });

  it('keeps the other answers as they were', async () => {
    await expect(writesAnswering(result(0, null)).deleteGroup('g', NO_DEADLINE)).resolves.toBeUndefined();
    await expect(
      writesAnswering(result(69, 'Group g not found.')).deleteGroup('g', NO_DEADLINE),
    ).rejects.toBeInstanceOf(GroupNotFoundError);
    const other = await writesAnswering(result(30, 'no'))
      .deleteGroup('g', NO_DEADLINE)
      .catch((e: unknown) => e);
    expect(other).toBeInstanceOf(KafkaResponseError);
    expect(other).toMatchObject({ kafkaError: { code: 30, message: 'no' } });
  });
});
