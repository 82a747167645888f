import { describe, expect, it } from 'vitest';
import { retireMargin } from './connection.js';

describe('retireMargin: how long before its SASL session ends a connection takes no new calls', () => {
  it('a tenth of the session, at least 10 s, at most half of it', () => {
    expect(retireMargin(3_600_000)).toBe(360_000);
    expect(retireMargin(60_000)).toBe(10_000);
    expect(retireMargin(7_000)).toBe(3_500);
    expect(retireMargin(1_000)).toBe(500);
  });
});
