import { describe, expect, it } from 'vitest';
import { UnsupportedFieldVersionError, UnsupportedVersionError } from '../decode-error.js';
import { expectRoundTrip, expectTruncationsFail, fuzz, hex, toHex, versionsOf } from '../test-utils.js';
import {
  LeaveGroup,
  type LeaveGroupRequest,
  type LeaveGroupResponse,
  UNKNOWN_MEMBER_ID,
} from './leave-group.js';

const request = (v: number): LeaveGroupRequest => ({
  groupId: 'orders-app',
  members: [
    {
      memberId: UNKNOWN_MEMBER_ID,
      groupInstanceId: 'orders-ñ-0',
      ...(v >= 5 && { reason: 'removed by admin' }),
    },
    { memberId: 'consumer-1-9b1c', groupInstanceId: null, ...(v >= 5 && { reason: null }) },
  ],
});

const response: LeaveGroupResponse = {
  throttleTimeMs: 1,
  errorCode: 0,
  members: [
    { memberId: 'consumer-2-77aa', groupInstanceId: 'orders-ñ-0', errorCode: 0 },
    { memberId: 'consumer-1-9b1c', groupInstanceId: null, errorCode: 25 },
  ],
};

// Golden bodies, derived by hand from LeaveGroupRequest.json / LeaveGroupResponse.json.
const REQUEST_V3 = hex`
  00 02 67 31                   # GroupId "g1" (int16 length)
  00 00 00 01                   # Members: 1 (int32 count)
  00 00                         #   MemberId "" (remove by instance id)
  00 02 69 30                   #   GroupInstanceId "i0"
`;
const REQUEST_V5 = hex`
  03 67 31                      # GroupId "g1" (compact: length 2 + 1)
  02                            # Members: 1 (compact: 1 + 1)
  01                            #   MemberId ""
  03 69 30                      #   GroupInstanceId "i0"
  02 72                         #   Reason "r"
  00                            #   member tagged fields
  00                            # tagged fields
`;
const RESPONSE_V3 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  00 00                         # ErrorCode 0
  00 00 00 01                   # Members: 1
  00 01 6d                      #   MemberId "m"
  00 02 69 30                   #   GroupInstanceId "i0"
  00 00                         #   ErrorCode 0
`;
const RESPONSE_V4 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  00 00                         # ErrorCode 0
  02                            # Members: 1
  01                            #   MemberId ""
  03 69 30                      #   GroupInstanceId "i0"
  00 19                         #   ErrorCode 25 (UNKNOWN_MEMBER_ID: no such instance)
  00                            #   member tagged fields
  00                            # tagged fields
`;

describe('LeaveGroup codec', () => {
  it('has the key and the batched versions of the schema', () => {
    expect(LeaveGroup).toMatchObject({
      apiKey: 13,
      name: 'LeaveGroup',
      minVersion: 3,
      maxVersion: 5,
      flexibleFrom: 4,
    });
  });

  it.each(versionsOf(LeaveGroup))('round-trips request and response v%i', (v) => {
    expectRoundTrip(LeaveGroup, v, request(v), response);
  });

  it('matches golden bytes', () => {
    const req3 = { groupId: 'g1', members: [{ memberId: '', groupInstanceId: 'i0' }] };
    expect(toHex(LeaveGroup.encodeRequest(3, req3))).toBe(toHex(REQUEST_V3));
    expect(LeaveGroup.decodeRequest(3, REQUEST_V3)).toStrictEqual(req3);
    const req5 = { groupId: 'g1', members: [{ memberId: '', groupInstanceId: 'i0', reason: 'r' }] };
    expect(toHex(LeaveGroup.encodeRequest(5, req5))).toBe(toHex(REQUEST_V5));
    expect(LeaveGroup.decodeRequest(5, REQUEST_V5)).toStrictEqual(req5);
    const res3 = {
      throttleTimeMs: 0,
      errorCode: 0,
      members: [{ memberId: 'm', groupInstanceId: 'i0', errorCode: 0 }],
    };
    expect(toHex(LeaveGroup.encodeResponse(3, res3))).toBe(toHex(RESPONSE_V3));
    expect(LeaveGroup.decodeResponse(3, RESPONSE_V3)).toStrictEqual(res3);
    const res4 = {
      throttleTimeMs: 0,
      errorCode: 0,
      members: [{ memberId: '', groupInstanceId: 'i0', errorCode: 25 }],
    };
    for (const v of [4, 5]) {
      expect(toHex(LeaveGroup.encodeResponse(v, res4))).toBe(toHex(RESPONSE_V4));
      expect(LeaveGroup.decodeResponse(v, RESPONSE_V4)).toStrictEqual(res4);
    }
  });

  it('fails cleanly on every truncation of the golden bodies and on a trailing byte', () => {
    expectTruncationsFail((b) => LeaveGroup.decodeRequest(3, b), REQUEST_V3);
    expectTruncationsFail((b) => LeaveGroup.decodeRequest(5, b), REQUEST_V5);
    expectTruncationsFail((b) => LeaveGroup.decodeResponse(3, b), RESPONSE_V3);
    expectTruncationsFail((b) => LeaveGroup.decodeResponse(4, b), RESPONSE_V4);
  });

  it('refuses a reason before v5, and accepts its default', () => {
    expect(() => LeaveGroup.encodeRequest(4, request(5))).toThrow(UnsupportedFieldVersionError);
    expect(() => LeaveGroup.encodeRequest(4, request(5))).toThrow(/members\[\]\.reason/);
    const nullReason = { groupId: 'g', members: [{ memberId: '', groupInstanceId: 'i', reason: null }] };
    expect(LeaveGroup.encodeRequest(4, nullReason)).toEqual(
      LeaveGroup.encodeRequest(4, { groupId: 'g', members: [{ memberId: '', groupInstanceId: 'i' }] }),
    );
  });

  it('refuses the single-member versions 0-2, which cannot name a static member', () => {
    expect(() => LeaveGroup.encodeRequest(2, request(3))).toThrow(UnsupportedVersionError);
    expect(() => LeaveGroup.decodeResponse(6, RESPONSE_V4)).toThrow(UnsupportedVersionError);
  });

  it('keeps unknown tagged fields through a decode and encode', () => {
    const body = hex`
      00 00 00 00 00 00 01        # ThrottleTimeMs 0, ErrorCode 0, Members: 0
      01 00 03 61 62 63           # tags: 1, tag 0, 3 bytes "abc"
    `;
    const decoded = LeaveGroup.decodeResponse(4, body);
    expect(decoded.unknownTaggedFields).toStrictEqual([{ tag: 0, data: hex`61 62 63` }]);
    expect(toHex(LeaveGroup.encodeResponse(4, decoded))).toBe(toHex(body));
  });

  it('survives random and corrupted bytes', () => {
    fuzz(
      LeaveGroup,
      versionsOf(LeaveGroup).map((v) => ({
        version: v,
        request: LeaveGroup.encodeRequest(v, request(v)),
        response: LeaveGroup.encodeResponse(v, response),
      })),
    );
  });
});
