import { describe, expect, it } from 'vitest';
import {
  type ConsumerProtocolAssignment,
  type ConsumerProtocolSubscription,
  decodeConsumerProtocolAssignment,
  decodeConsumerProtocolSubscription,
  encodeConsumerProtocolAssignment,
  encodeConsumerProtocolSubscription,
} from './consumer-protocol.js';
import { UnsupportedFieldVersionError, UnsupportedVersionError } from './decode-error.js';
import {
  decodeFailure,
  expectDecodesOrFails,
  expectTruncationsFail,
  hex,
  prng,
  toHex,
} from './test-utils.js';

const subscription = (v: number): ConsumerProtocolSubscription => ({
  version: v,
  topics: ['orders', 'payments'],
  userData: v % 2 === 0 ? null : new Uint8Array([1, 2, 3]),
  ...(v >= 1 && { ownedPartitions: [{ topic: 'orders', partitions: [0, 2] }] }),
  ...(v >= 2 && { generationId: 12 }),
  ...(v >= 3 && { rackId: 'eu-west-1a' }),
});

const assignment = (v: number): ConsumerProtocolAssignment => ({
  version: v,
  assignedPartitions: [
    { topic: 'orders', partitions: [0, 1, 2] },
    { topic: 'payments', partitions: [] },
  ],
  userData: v === 1 ? new Uint8Array([9]) : null,
});

// Golden bytes, derived by hand from ConsumerProtocolSubscription.json / ConsumerProtocolAssignment.json.
const SUBSCRIPTION_V0 = hex`
  00 00                         # Version 0
  00 00 00 01                   # Topics: 1
  00 01 74                      #   "t"
  ff ff ff ff                   # UserData: null
`;
const SUBSCRIPTION_V3 = hex`
  00 03                         # Version 3
  00 00 00 01                   # Topics: 1
  00 01 74                      #   "t"
  00 00 00 00                   # UserData: empty
  00 00 00 01                   # OwnedPartitions: 1
  00 01 74                      #   Topic "t"
  00 00 00 02                   #   Partitions: 2
  00 00 00 00                   #     0
  00 00 00 01                   #     1
  00 00 00 05                   # GenerationId 5
  00 01 72                      # RackId "r"
`;
const ASSIGNMENT_V0 = hex`
  00 00                         # Version 0
  00 00 00 01                   # AssignedPartitions: 1
  00 01 74                      #   Topic "t"
  00 00 00 01                   #   Partitions: 1
  00 00 00 00                   #     0
  ff ff ff ff                   # UserData: null
`;

describe('consumer protocol', () => {
  it.each([0, 1, 2, 3])('round-trips subscription and assignment v%i', (v) => {
    const sub = subscription(v);
    expect(decodeConsumerProtocolSubscription(encodeConsumerProtocolSubscription(sub))).toStrictEqual(sub);
    const asg = assignment(v);
    expect(decodeConsumerProtocolAssignment(encodeConsumerProtocolAssignment(asg))).toStrictEqual(asg);
  });

  it('matches golden bytes', () => {
    const sub0 = { version: 0, topics: ['t'], userData: null };
    expect(toHex(encodeConsumerProtocolSubscription(sub0))).toBe(toHex(SUBSCRIPTION_V0));
    expect(decodeConsumerProtocolSubscription(SUBSCRIPTION_V0)).toStrictEqual(sub0);
    const sub3 = {
      version: 3,
      topics: ['t'],
      userData: new Uint8Array(),
      ownedPartitions: [{ topic: 't', partitions: [0, 1] }],
      generationId: 5,
      rackId: 'r',
    };
    expect(toHex(encodeConsumerProtocolSubscription(sub3))).toBe(toHex(SUBSCRIPTION_V3));
    expect(decodeConsumerProtocolSubscription(SUBSCRIPTION_V3)).toStrictEqual(sub3);
    const asg0 = { version: 0, assignedPartitions: [{ topic: 't', partitions: [0] }], userData: null };
    expect(toHex(encodeConsumerProtocolAssignment(asg0))).toBe(toHex(ASSIGNMENT_V0));
    expect(decodeConsumerProtocolAssignment(ASSIGNMENT_V0)).toStrictEqual(asg0);
  });

  it('gives null for empty bytes: a group that is not Stable has none', () => {
    expect(decodeConsumerProtocolSubscription(new Uint8Array())).toBeNull();
    expect(decodeConsumerProtocolAssignment(new Uint8Array())).toBeNull();
  });

  it('reads a newer version with the v3 layout and ignores what follows', () => {
    const v4 = SUBSCRIPTION_V3.slice();
    v4[1] = 4;
    const newer = new Uint8Array([...v4, 0xde, 0xad, 0xbe, 0xef]);
    expect(decodeConsumerProtocolSubscription(newer)).toStrictEqual({
      version: 4,
      topics: ['t'],
      userData: new Uint8Array(),
      ownedPartitions: [{ topic: 't', partitions: [0, 1] }],
      generationId: 5,
      rackId: 'r',
    });
    const assignmentV9 = new Uint8Array([...ASSIGNMENT_V0, 0x01]);
    assignmentV9[1] = 9;
    expect(decodeConsumerProtocolAssignment(assignmentV9)?.version).toBe(9);
  });

  it('refuses trailing bytes in the versions it knows, and negative versions', () => {
    expect(
      decodeFailure(() => decodeConsumerProtocolSubscription(new Uint8Array([...SUBSCRIPTION_V0, 0]))).reason,
    ).toMatch(/left over/);
    const negative = decodeFailure(() =>
      decodeConsumerProtocolAssignment(hex`ff ff 00 00 00 00 ff ff ff ff`),
    );
    expect(negative.reason).toMatch(/negative version/);
  });

  it('fails cleanly on every truncation, naming the structure', () => {
    // From one byte: zero bytes are the valid "no subscription yet".
    expectTruncationsFail(decodeConsumerProtocolSubscription, SUBSCRIPTION_V3, 1);
    expectTruncationsFail(decodeConsumerProtocolAssignment, ASSIGNMENT_V0, 1);
    const error = decodeFailure(() => decodeConsumerProtocolSubscription(SUBSCRIPTION_V3.subarray(0, 9)));
    expect(error.message).toMatch(/^ConsumerProtocolSubscription v3: truncated/);
  });

  it('fails at once on a huge topic count', () => {
    expect(
      decodeFailure(() => decodeConsumerProtocolSubscription(hex`00 00 7f ff ff ff 00 00`)).reason,
    ).toMatch(/count/);
  });

  it('refuses versions it cannot write and fields the version lacks', () => {
    expect(() => encodeConsumerProtocolSubscription({ ...subscription(3), version: 4 })).toThrow(
      UnsupportedVersionError,
    );
    expect(() => encodeConsumerProtocolSubscription({ ...subscription(3), version: 2 })).toThrow(
      UnsupportedFieldVersionError,
    );
    expect(() =>
      encodeConsumerProtocolSubscription({ version: 1, topics: [], userData: null, generationId: 3 }),
    ).toThrow(/generationId/);
    // Defaults are accepted in any version.
    expect(
      encodeConsumerProtocolSubscription({
        version: 0,
        topics: [],
        userData: null,
        generationId: -1,
        rackId: null,
      }),
    ).toEqual(hex`00 00 00 00 00 00 ff ff ff ff`);
  });

  it('survives random bytes', () => {
    const random = prng(42);
    for (let i = 0; i < 2000; i++) {
      const bytes = new Uint8Array(Math.floor(random() * 40));
      for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(random() * 256);
      if (bytes.length > 1 && random() < 0.5) bytes[0] = 0; // mostly plausible versions
      expectDecodesOrFails(decodeConsumerProtocolSubscription, bytes);
      expectDecodesOrFails(decodeConsumerProtocolAssignment, bytes);
    }
  });
});
