import { describe, expect, it } from 'vitest';
import { bestPerGroup } from './describer.js';

describe('bestPerGroup', () => {
  it("keeps a group's own answer over the duplicate not-found entries some brokers add", () => {
    // Kafka 3.9 answers a batch once per offsets partition asked: share's and consumer's twice each.
    const answer = [
      { groupId: 'share', errorCode: 69 },
      { groupId: 'consumer', errorCode: 0 },
      { groupId: 'share', errorCode: 69 },
      { groupId: 'consumer', errorCode: 69 },
    ];
    const best = bestPerGroup(answer);
    expect(best.get('consumer')).toBe(answer[1]);
    expect(best.get('share')?.errorCode).toBe(69);
    expect(best.size).toBe(2);
  });

  it('prefers a coordinator error (worth a retry) to a final one', () => {
    const best = bestPerGroup([
      { groupId: 'g', errorCode: 69 },
      { groupId: 'g', errorCode: 16 },
    ]);
    expect(best.get('g')?.errorCode).toBe(16);
  });
});
