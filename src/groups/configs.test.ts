/**
 * A change's answer shows the change: a broker's DescribeConfigs can lag the controller that took
 * IncrementalAlterConfigs, so the read after a change is asked again until it shows, bounded.
 */

import { describe, expect, it } from 'vitest';
import { Deadline, NO_DEADLINE } from '../broker/deadline.js';
import { configsShowing, type GroupConfig, showsChange } from './configs.js';

const config = (name: string, value: string | null, source: GroupConfig['source']): GroupConfig => ({
  name,
  value,
  source,
  sensitive: false,
  readOnly: false,
  type: 'int',
  documentation: null,
});

const NAME = 'consumer.session.timeout.ms';
const before = [config(NAME, '45000', 'DEFAULT_CONFIG')];
const after = [config(NAME, '55000', 'DYNAMIC_GROUP_CONFIG')];
const set = { set: { [NAME]: '55000' }, delete: [] };
const removed = { set: {}, delete: [NAME] };

describe('a change shows in the configs', () => {
  it('when each set name is a group config of its value and each deleted name is not', () => {
    expect(showsChange(after, set)).toBe(true);
    expect(showsChange(before, set)).toBe(false);
    expect(showsChange([config(NAME, '50000', 'DYNAMIC_GROUP_CONFIG')], set)).toBe(false);
    expect(showsChange(before, removed)).toBe(true);
    expect(showsChange(after, removed)).toBe(false);
    expect(showsChange([], removed)).toBe(true);
  });

  it('reads again until the broker has the change', async () => {
    const readings = [before, before, after];
    let reads = 0;
    const configs = await configsShowing(async () => readings[reads++] ?? after, set, NO_DEADLINE);
    expect(configs).toBe(after);
    expect(reads).toBe(3);
  });

  it('gives the last reading, as it is, once its wait is over', async () => {
    let reads = 0;
    const started = Date.now();
    const configs = await configsShowing(
      async () => {
        reads++;
        return before;
      },
      set,
      NO_DEADLINE,
      100,
    );
    expect(configs).toBe(before);
    expect(reads).toBeGreaterThan(1);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('stops reading again once the deadline it is given has passed', async () => {
    let reads = 0;
    const spent = Deadline.after(60_000);
    spent.abort();
    const configs = await configsShowing(
      async () => {
        reads++;
        return before;
      },
      set,
      { deadline: spent },
    );
    expect(configs).toBe(before);
    expect(reads).toBe(1);
  });

  it('reads once when the first reading shows the change', async () => {
    let reads = 0;
    await configsShowing(
      async () => {
        reads++;
        return after;
      },
      set,
      NO_DEADLINE,
    );
    expect(reads).toBe(1);
  });
});
