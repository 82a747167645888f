/**
 * A group's first describe without ?type=: DescribeGroups alone, then the other three types' RPCs
 * for the groups it did not find, one round trip. Stand-in describers (the real broker's answers:
 * test/integration/group-types.test.ts).
 */

import { describe, expect, it } from 'vitest';
import { NO_DEADLINE } from '../../src/broker/deadline.js';
import type { BrokerConnection } from '../../src/broker/transport/connection.js';
import type { GroupDescriber, TypedOutcome } from '../../src/groups/describe/describer.js';
import { resolveGroups } from '../../src/groups/describe/resolve.js';
import { GroupNotFoundError } from '../../src/groups/errors.js';
import { type BrokerRef, GROUP_TYPES, type Group, type GroupType } from '../../src/groups/model.js';

const coordinator: BrokerRef = { nodeId: 1, host: 'stand-in', port: 9092 };
const connection = { label: 'stand-in:9092' } as BrokerConnection;

/** Each type finds the groups named after it ('classic-1', 'consumer-1', …) and no other. */
function standIns() {
  const asked: [GroupType, string[]][] = [];
  const describers = Object.fromEntries(
    GROUP_TYPES.map((type): [GroupType, GroupDescriber] => [
      type,
      {
        type,
        api: `${type} describe`,
        describe: async (_connection, _coordinator, ids) => {
          asked.push([type, [...ids]]);
          return new Map<string, TypedOutcome>(
            ids.map((id) => [
              id,
              id.startsWith(`${type}-`)
                ? { kind: 'found', group: { type, groupId: id } as unknown as Group }
                : { kind: 'absent' },
            ]),
          );
        },
      },
    ]),
  ) as Record<GroupType, GroupDescriber>;
  return { describers, asked };
}

describe('the first describe of a group of unknown type (stand-in describers)', () => {
  it('asks DescribeGroups alone, then the other three for what it did not find', async () => {
    const { describers, asked } = standIns();
    const ids = ['classic-1', 'consumer-1', 'streams-1', 'missing'];
    const out = await resolveGroups(describers, connection, coordinator, ids, NO_DEADLINE);
    expect(asked[0]).toEqual(['classic', ids]);
    expect(asked.slice(1).sort()).toEqual([
      ['consumer', ['consumer-1', 'streams-1', 'missing']],
      ['share', ['consumer-1', 'streams-1', 'missing']],
      ['streams', ['consumer-1', 'streams-1', 'missing']],
    ]);
    expect(out.get('classic-1')).toMatchObject({ ok: true, value: { type: 'classic' } });
    expect(out.get('consumer-1')).toMatchObject({ ok: true, value: { type: 'consumer' } });
    expect(out.get('streams-1')).toMatchObject({ ok: true, value: { type: 'streams' } });
    const missing = out.get('missing');
    expect(missing?.ok === false && missing.error).toBeInstanceOf(GroupNotFoundError);
  });

  it('a classic group costs one RPC', async () => {
    const { describers, asked } = standIns();
    const out = await resolveGroups(describers, connection, coordinator, ['classic-1'], NO_DEADLINE);
    expect(asked).toEqual([['classic', ['classic-1']]]);
    expect(out.get('classic-1')).toMatchObject({ ok: true });
  });
});
