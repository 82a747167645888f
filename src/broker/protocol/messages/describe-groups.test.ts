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
  AUTHORIZED_OPERATIONS_OMITTED,
  DescribeGroups,
  type DescribeGroupsRequest,
  type DescribeGroupsResponse,
} from './describe-groups.js';

const request = (v: number): DescribeGroupsRequest => ({
  groups: ['g1', 'grupo ñ', ''],
  ...(v >= 3 && { includeAuthorizedOperations: true }),
});

const response = (v: number): DescribeGroupsResponse => ({
  ...(v >= 1 && { throttleTimeMs: 3 }),
  groups: [
    {
      errorCode: 0,
      ...(v >= 6 && { errorMessage: null }),
      groupId: 'g1',
      groupState: 'Stable',
      protocolType: 'consumer',
      protocolData: 'range',
      members: [
        {
          memberId: 'consumer-1-4f0c',
          ...(v >= 4 && { groupInstanceId: 'instance-a' }),
          clientId: 'consumer-1',
          clientHost: '/10.0.0.1',
          memberMetadata: new Uint8Array([0, 3, 0, 0, 0, 0]),
          memberAssignment: new Uint8Array(),
        },
        {
          memberId: 'm2',
          ...(v >= 4 && { groupInstanceId: null }),
          clientId: '',
          clientHost: '',
          memberMetadata: new Uint8Array(),
          memberAssignment: new Uint8Array([1, 2, 3]),
        },
      ],
      ...(v >= 3 && { authorizedOperations: 0b1000_0000_1000 }),
    },
    {
      errorCode: 69,
      ...(v >= 6 && { errorMessage: 'Group missing not found.' }),
      groupId: 'missing',
      groupState: 'Dead',
      protocolType: '',
      protocolData: '',
      members: [],
      ...(v >= 3 && { authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED }),
    },
  ],
});

// Golden bodies, derived by hand from DescribeGroupsRequest.json / DescribeGroupsResponse.json.
const REQUEST_V0 = hex`
  00 00 00 01                   # Groups: 1
  00 02 67 31                   #   "g1"
`;
const REQUEST_V5 = hex`
  02                            # Groups: 1 (compact)
  03 67 31                      #   "g1"
  01                            # IncludeAuthorizedOperations true
  00                            # tagged fields
`;
const RESPONSE_V0 = hex`
  00 00 00 01                   # Groups: 1
  00 00                         #   ErrorCode 0
  00 02 67 31                   #   GroupId "g1"
  00 06 53 74 61 62 6c 65       #   GroupState "Stable"
  00 08 63 6f 6e 73 75 6d 65 72 #   ProtocolType "consumer"
  00 05 72 61 6e 67 65          #   ProtocolData "range"
  00 00 00 01                   #   Members: 1
  00 01 6d                      #     MemberId "m"
  00 01 63                      #     ClientId "c"
  00 02 2f 68                   #     ClientHost "/h"
  00 00 00 02 00 01             #     MemberMetadata: 2 bytes
  00 00 00 00                   #     MemberAssignment: empty
`;
const RESPONSE_V6 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  02                            # Groups: 1
  00 45                         #   ErrorCode 69 (GROUP_ID_NOT_FOUND)
  03 6e 6f                      #   ErrorMessage "no"
  03 67 31                      #   GroupId "g1"
  05 44 65 61 64                #   GroupState "Dead"
  01                            #   ProtocolType ""
  01                            #   ProtocolData ""
  01                            #   Members: 0
  80 00 00 00                   #   AuthorizedOperations INT32_MIN (not requested)
  00                            #   group tagged fields
  00                            # tagged fields
`;

describe('DescribeGroups codec', () => {
  it('has the key and versions of the schema', () => {
    expect(DescribeGroups).toMatchObject({ apiKey: 15, minVersion: 0, maxVersion: 6, flexibleFrom: 5 });
  });

  it.each(versionsOf(DescribeGroups))('round-trips request and response v%i', (v) => {
    expectRoundTrip(DescribeGroups, v, request(v), response(v));
  });

  it('matches golden bytes', () => {
    expect(toHex(DescribeGroups.encodeRequest(0, { groups: ['g1'] }))).toBe(toHex(REQUEST_V0));
    expect(DescribeGroups.decodeRequest(0, REQUEST_V0)).toStrictEqual({ groups: ['g1'] });
    const req5 = { groups: ['g1'], includeAuthorizedOperations: true };
    expect(toHex(DescribeGroups.encodeRequest(5, req5))).toBe(toHex(REQUEST_V5));
    expect(DescribeGroups.decodeRequest(5, REQUEST_V5)).toStrictEqual(req5);

    const res0: DescribeGroupsResponse = {
      groups: [
        {
          errorCode: 0,
          groupId: 'g1',
          groupState: 'Stable',
          protocolType: 'consumer',
          protocolData: 'range',
          members: [
            {
              memberId: 'm',
              clientId: 'c',
              clientHost: '/h',
              memberMetadata: new Uint8Array([0, 1]),
              memberAssignment: new Uint8Array(),
            },
          ],
        },
      ],
    };
    expect(toHex(DescribeGroups.encodeResponse(0, res0))).toBe(toHex(RESPONSE_V0));
    expect(DescribeGroups.decodeResponse(0, RESPONSE_V0)).toStrictEqual(res0);
    const res6: DescribeGroupsResponse = {
      throttleTimeMs: 0,
      groups: [
        {
          errorCode: 69,
          errorMessage: 'no',
          groupId: 'g1',
          groupState: 'Dead',
          protocolType: '',
          protocolData: '',
          members: [],
          authorizedOperations: -2147483648,
        },
      ],
    };
    expect(toHex(DescribeGroups.encodeResponse(6, res6))).toBe(toHex(RESPONSE_V6));
    expect(DescribeGroups.decodeResponse(6, RESPONSE_V6)).toStrictEqual(res6);
  });

  it('fails cleanly on every truncation of the golden bodies', () => {
    expectTruncationsFail((b) => DescribeGroups.decodeResponse(0, b), RESPONSE_V0);
    expectTruncationsFail((b) => DescribeGroups.decodeResponse(6, b), RESPONSE_V6);
    expectTruncationsFail((b) => DescribeGroups.decodeRequest(5, b), REQUEST_V5);
  });

  it('fails at once on a huge member count or bytes length', () => {
    const members = hex`
      00 00 00 01  00 00  00 00  00 00  00 00  00 00   # 1 group, error, 4 empty strings
      7f ff ff ff                                      # Members: 2^31-1
    `;
    expect(decodeFailure(() => DescribeGroups.decodeResponse(0, members)).reason).toMatch(/count 2147483647/);
    const metadata = hex`
      00 00 00 01  00 00  00 00  00 00  00 00  00 00   # 1 group, error, 4 empty strings
      00 00 00 01  00 00  00 00  00 00                 # 1 member, 3 empty strings
      7f ff ff ff                                      # MemberMetadata: 2^31-1 bytes
      00 00 00 00                                      # (enough bytes for the member count to pass)
    `;
    expect(decodeFailure(() => DescribeGroups.decodeResponse(0, metadata)).reason).toMatch(/truncated/);
  });

  it('refuses version-gated values where they do not exist', () => {
    expect(() => DescribeGroups.encodeRequest(2, { groups: [], includeAuthorizedOperations: true })).toThrow(
      UnsupportedFieldVersionError,
    );
    expect(DescribeGroups.encodeRequest(2, { groups: [], includeAuthorizedOperations: false })).toEqual(
      hex`00 00 00 00`,
    );
    const withInstance = response(4);
    expect(() => DescribeGroups.encodeResponse(3, withInstance)).toThrow(/groupInstanceId/);
    expect(() => DescribeGroups.encodeResponse(5, response(6))).toThrow(/errorMessage/);
    expect(() => DescribeGroups.encodeResponse(2, response(3))).toThrow(/authorizedOperations/);
  });

  it('refuses null where the schema is not nullable', () => {
    // GroupState as null (ffff) in v0, then enough bytes for the group count to pass its check.
    const body = hex`00 00 00 01  00 00  00 00  ff ff  00 00 00 00 00 00 00 00`;
    expect(decodeFailure(() => DescribeGroups.decodeResponse(0, body)).reason).toMatch(/null/);
  });

  it('survives random and corrupted bytes', () => {
    fuzz(
      DescribeGroups,
      versionsOf(DescribeGroups).map((v) => ({
        version: v,
        request: DescribeGroups.encodeRequest(v, request(v)),
        response: DescribeGroups.encodeResponse(v, response(v)),
      })),
    );
  });
});
