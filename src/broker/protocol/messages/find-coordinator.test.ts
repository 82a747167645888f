import { describe, expect, it } from 'vitest';
import { UnsupportedFieldVersionError } from '../decode-error.js';
import {
  decodeFailure,
  expectRoundTrip,
  expectTruncationsFail,
  fuzz,
  hex,
  toHex,
  versionsOf,
} from '../test-utils.js';
import {
  CoordinatorType,
  FindCoordinator,
  type FindCoordinatorRequest,
  type FindCoordinatorResponse,
} from './find-coordinator.js';

const request = (v: number): FindCoordinatorRequest =>
  v >= 4
    ? { keyType: v >= 6 ? CoordinatorType.Share : CoordinatorType.Group, coordinatorKeys: ['g1', 'g2', 'gé'] }
    : { key: 'g1', ...(v >= 1 && { keyType: CoordinatorType.Transaction }) };

const response = (v: number): FindCoordinatorResponse =>
  v >= 4
    ? {
        throttleTimeMs: 1,
        coordinators: [
          { key: 'g1', nodeId: 1, host: 'broker-1.example', port: 9092, errorCode: 0, errorMessage: null },
          { key: 'g2', nodeId: -1, host: '', port: -1, errorCode: 15, errorMessage: 'not yet' },
        ],
      }
    : {
        ...(v >= 1 && { throttleTimeMs: 1 }),
        errorCode: 0,
        ...(v >= 1 && { errorMessage: null }),
        nodeId: 2,
        host: 'broker-2.example',
        port: 9093,
      };

// Golden bodies, derived by hand from FindCoordinatorRequest.json / FindCoordinatorResponse.json.
const REQUEST_V1 = hex`
  00 02 67 31                   # Key "g1"
  00                            # KeyType 0 (group)
`;
const REQUEST_V4 = hex`
  00                            # KeyType 0 (Key is gone from v4)
  03                            # CoordinatorKeys: 2 (compact)
  03 67 31                      #   "g1"
  03 67 32                      #   "g2"
  00                            # tagged fields
`;
const RESPONSE_V0 = hex`
  00 00                         # ErrorCode 0
  00 00 00 01                   # NodeId 1
  00 01 68                      # Host "h"
  00 00 23 84                   # Port 9092
`;
const RESPONSE_V1 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  00 0f                         # ErrorCode 15 (COORDINATOR_NOT_AVAILABLE)
  ff ff                         # ErrorMessage null
  ff ff ff ff                   # NodeId -1
  00 00                         # Host ""
  ff ff ff ff                   # Port -1
`;
const RESPONSE_V3 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  00 00                         # ErrorCode 0
  00                            # ErrorMessage null (compact)
  00 00 00 01                   # NodeId 1
  02 68                         # Host "h"
  00 00 23 84                   # Port 9092
  00                            # tagged fields
`;
const RESPONSE_V4 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  02                            # Coordinators: 1
  03 67 31                      #   Key "g1"
  00 00 00 01                   #   NodeId 1
  02 68                         #   Host "h"
  00 00 23 84                   #   Port 9092
  00 00                         #   ErrorCode 0
  00                            #   ErrorMessage null
  00                            #   coordinator tagged fields
  00                            # tagged fields
`;

describe('FindCoordinator codec', () => {
  it('has the key and versions of the schema', () => {
    expect(FindCoordinator).toMatchObject({ apiKey: 10, minVersion: 0, maxVersion: 6, flexibleFrom: 3 });
  });

  it.each(versionsOf(FindCoordinator))('round-trips request and response v%i', (v) => {
    expectRoundTrip(FindCoordinator, v, request(v), response(v));
  });

  it('matches golden bytes', () => {
    expect(toHex(FindCoordinator.encodeRequest(0, { key: 'g1' }))).toBe('00 02 67 31');
    expect(toHex(FindCoordinator.encodeRequest(1, { key: 'g1', keyType: 0 }))).toBe(toHex(REQUEST_V1));
    expect(FindCoordinator.decodeRequest(1, REQUEST_V1)).toStrictEqual({ key: 'g1', keyType: 0 });
    const req4 = { keyType: 0, coordinatorKeys: ['g1', 'g2'] };
    expect(toHex(FindCoordinator.encodeRequest(4, req4))).toBe(toHex(REQUEST_V4));
    expect(FindCoordinator.decodeRequest(4, REQUEST_V4)).toStrictEqual(req4);

    const res0 = { errorCode: 0, nodeId: 1, host: 'h', port: 9092 };
    expect(toHex(FindCoordinator.encodeResponse(0, res0))).toBe(toHex(RESPONSE_V0));
    expect(FindCoordinator.decodeResponse(0, RESPONSE_V0)).toStrictEqual(res0);
    const res1 = { throttleTimeMs: 0, errorCode: 15, errorMessage: null, nodeId: -1, host: '', port: -1 };
    expect(toHex(FindCoordinator.encodeResponse(1, res1))).toBe(toHex(RESPONSE_V1));
    expect(FindCoordinator.decodeResponse(1, RESPONSE_V1)).toStrictEqual(res1);
    const res3 = { throttleTimeMs: 0, errorCode: 0, errorMessage: null, nodeId: 1, host: 'h', port: 9092 };
    expect(toHex(FindCoordinator.encodeResponse(3, res3))).toBe(toHex(RESPONSE_V3));
    expect(FindCoordinator.decodeResponse(3, RESPONSE_V3)).toStrictEqual(res3);
    const res4 = {
      throttleTimeMs: 0,
      coordinators: [{ key: 'g1', nodeId: 1, host: 'h', port: 9092, errorCode: 0, errorMessage: null }],
    };
    expect(toHex(FindCoordinator.encodeResponse(4, res4))).toBe(toHex(RESPONSE_V4));
    expect(FindCoordinator.decodeResponse(4, RESPONSE_V4)).toStrictEqual(res4);
  });

  it('fails cleanly on every truncation of the golden bodies', () => {
    expectTruncationsFail((b) => FindCoordinator.decodeResponse(0, b), RESPONSE_V0);
    expectTruncationsFail((b) => FindCoordinator.decodeResponse(1, b), RESPONSE_V1);
    expectTruncationsFail((b) => FindCoordinator.decodeResponse(3, b), RESPONSE_V3);
    expectTruncationsFail((b) => FindCoordinator.decodeResponse(4, b), RESPONSE_V4);
    expectTruncationsFail((b) => FindCoordinator.decodeRequest(4, b), REQUEST_V4);
  });

  it('fails at once on a huge coordinator count', () => {
    expect(
      decodeFailure(() => FindCoordinator.decodeResponse(4, hex`00 00 00 00 ff ff ff ff 0f 00`)).reason,
    ).toMatch(/count/);
  });

  it('keeps the two wire shapes apart: no silent conversion between them', () => {
    // A batch at v3 or a single key at v4 would lose the caller's keys: both are refused.
    expect(() => FindCoordinator.encodeRequest(3, { key: 'g', coordinatorKeys: ['g'] })).toThrow(
      UnsupportedFieldVersionError,
    );
    expect(() => FindCoordinator.encodeRequest(4, { key: 'g' })).toThrow(/'key'/);
    // A transaction lookup cannot be expressed in v0.
    expect(() =>
      FindCoordinator.encodeRequest(0, { key: 't', keyType: CoordinatorType.Transaction }),
    ).toThrow(/keyType/);
    expect(() => FindCoordinator.encodeResponse(4, { errorCode: 15, coordinators: [] })).toThrow(/errorCode/);
    expect(() =>
      FindCoordinator.encodeResponse(3, {
        errorCode: 0,
        nodeId: 1,
        host: 'h',
        port: 1,
        coordinators: [{ key: 'g', nodeId: 1, host: 'h', port: 1, errorCode: 0, errorMessage: null }],
      }),
    ).toThrow(/coordinators/);
  });

  it('survives random and corrupted bytes', () => {
    fuzz(
      FindCoordinator,
      versionsOf(FindCoordinator).map((v) => ({
        version: v,
        request: FindCoordinator.encodeRequest(v, request(v)),
        response: FindCoordinator.encodeResponse(v, response(v)),
      })),
    );
  });
});
