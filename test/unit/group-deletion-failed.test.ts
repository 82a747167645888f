import { describe, expect, it } from 'vitest';
import { describeKafkaError } from '../../src/broker/errors.js';
import { GroupDeletionFailedError } from '../../src/groups/writes/errors.js';
import { problemFor } from '../../src/http/problem-rows.js';

describe('GROUP_DELETION_FAILED as a problem', () => {
  it('is a 502 naming the group, the broker and Kafka’s per-group message', () => {
    const kafkaError = describeKafkaError(134, 'Topology description plugin failed to delete the topology.');
    const problem = problemFor(
      new GroupDeletionFailedError('orders', '10.0.0.1:9092', kafkaError),
      '/groups/orders',
    );
    expect(problem).toMatchObject({
      slug: 'group-deletion-failed',
      status: 502,
      extensions: {
        groupId: 'orders',
        broker: '10.0.0.1:9092',
        kafkaError: {
          code: 134,
          name: 'GROUP_DELETION_FAILED',
          message: 'Topology description plugin failed to delete the topology.',
        },
      },
      log: { level: 'warn' },
    });
    expect(problem.detail).toBe(
      "Kafka could not delete group 'orders' (GROUP_DELETION_FAILED: Topology description plugin failed to delete the topology.); the group is still there, try again later",
    );
  });
});
