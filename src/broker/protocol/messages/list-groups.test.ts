import { describe, expect, it } from 'vitest';
import { UnsupportedFieldVersionError, UnsupportedVersionError } from '../decode-error.js';
import {
  decodeFailure,
  expectRoundTrip,
  expectTruncationsFail,
  fuzz,
  hex,
  toHex,
  versionsOf,
} from '../test-utils.js';
import { ListGroups, type ListGroupsRequest, type ListGroupsResponse } from './list-groups.js';

const request = (v: number): ListGroupsRequest => ({
  ...(v >= 4 && { statesFilter: ['Stable', 'Empty'] }),
  ...(v >= 5 && { typesFilter: ['consumer', 'classic'] }),
});

const response = (v: number): ListGroupsResponse => ({
  ...(v >= 1 && { throttleTimeMs: 25 }),
  errorCode: 0,
  groups: [
    {
      groupId: 'orders/eu west 🌍',
      protocolType: 'consumer',
      ...(v >= 4 && { groupState: 'Stable' }),
      ...(v >= 5 && { groupType: 'classic' }),
    },
    {
      groupId: '',
      protocolType: '',
      ...(v >= 4 && { groupState: 'Empty' }),
      ...(v >= 5 && { groupType: 'share' }),
    },
  ],
});

// Golden bodies, derived by hand from ListGroupsRequest.json / ListGroupsResponse.json.
const REQUEST_V0 = hex``; // v0-2 requests have no fields
const REQUEST_V5 = hex`
  02                            # StatesFilter: compact array of 1 (1 + 1)
  07 53 74 61 62 6c 65          #   "Stable" (compact: length 6 + 1)
  02                            # TypesFilter: 1
  09 63 6f 6e 73 75 6d 65 72    #   "consumer" (8 + 1)
  00                            # tagged fields: none
`;
const RESPONSE_V2 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  00 00                         # ErrorCode 0
  00 00 00 01                   # Groups: 1 (int32 count)
  00 02 67 31                   #   GroupId "g1" (int16 length)
  00 08 63 6f 6e 73 75 6d 65 72 #   ProtocolType "consumer"
`;
const RESPONSE_V5 = hex`
  00 00 00 05                   # ThrottleTimeMs 5
  00 00                         # ErrorCode 0
  02                            # Groups: 1 (compact)
  03 67 31                      #   GroupId "g1"
  09 63 6f 6e 73 75 6d 65 72    #   ProtocolType "consumer"
  07 53 74 61 62 6c 65          #   GroupState "Stable"
  08 63 6c 61 73 73 69 63       #   GroupType "classic"
  00                            #   group tagged fields
  00                            # tagged fields
`;

describe('ListGroups codec', () => {
  it('has the key and versions of the schema', () => {
    expect(ListGroups).toMatchObject({
      apiKey: 16,
      name: 'ListGroups',
      minVersion: 0,
      maxVersion: 5,
      flexibleFrom: 3,
    });
  });

  it.each(versionsOf(ListGroups))('round-trips request and response v%i', (v) => {
    expectRoundTrip(ListGroups, v, request(v), response(v));
  });

  it('matches golden bytes', () => {
    expect(toHex(ListGroups.encodeRequest(0, {}))).toBe(toHex(REQUEST_V0));
    expect(ListGroups.decodeRequest(2, REQUEST_V0)).toStrictEqual({});
    const req5 = { statesFilter: ['Stable'], typesFilter: ['consumer'] };
    expect(toHex(ListGroups.encodeRequest(5, req5))).toBe(toHex(REQUEST_V5));
    expect(ListGroups.decodeRequest(5, REQUEST_V5)).toStrictEqual(req5);

    const res2 = { throttleTimeMs: 0, errorCode: 0, groups: [{ groupId: 'g1', protocolType: 'consumer' }] };
    expect(toHex(ListGroups.encodeResponse(2, res2))).toBe(toHex(RESPONSE_V2));
    expect(ListGroups.decodeResponse(2, RESPONSE_V2)).toStrictEqual(res2);
    const res5 = {
      throttleTimeMs: 5,
      errorCode: 0,
      groups: [{ groupId: 'g1', protocolType: 'consumer', groupState: 'Stable', groupType: 'classic' }],
    };
    expect(toHex(ListGroups.encodeResponse(5, res5))).toBe(toHex(RESPONSE_V5));
    expect(ListGroups.decodeResponse(5, RESPONSE_V5)).toStrictEqual(res5);
  });

  it('fails cleanly on every truncation of the golden bodies and on trailing bytes', () => {
    expectTruncationsFail((b) => ListGroups.decodeResponse(2, b), RESPONSE_V2);
    expectTruncationsFail((b) => ListGroups.decodeResponse(5, b), RESPONSE_V5);
    expectTruncationsFail((b) => ListGroups.decodeRequest(5, b), REQUEST_V5);
    expect(decodeFailure(() => ListGroups.decodeRequest(0, hex`00`)).reason).toMatch(/left over/);
  });

  it('names the RPC and version in decode errors', () => {
    const error = decodeFailure(() => ListGroups.decodeResponse(5, RESPONSE_V5.subarray(0, 10)));
    expect(error).toMatchObject({ apiKey: 16, apiVersion: 5 });
    expect(error.message).toMatch(/^ListGroups response v5: truncated/);
  });

  it('fails at once on a huge group count', () => {
    const error = decodeFailure(() => ListGroups.decodeResponse(2, hex`00 00 00 00 00 00 7f ff ff ff 00 00`));
    expect(error.reason).toMatch(/count 2147483647/);
  });

  it('refuses filters in versions that cannot carry them, and accepts their defaults', () => {
    expect(() => ListGroups.encodeRequest(3, { statesFilter: ['Stable'] })).toThrow(
      UnsupportedFieldVersionError,
    );
    expect(() => ListGroups.encodeRequest(4, { typesFilter: ['share'] })).toThrow(/typesFilter/);
    expect(ListGroups.encodeRequest(3, { statesFilter: [], typesFilter: [] })).toEqual(hex`00`);
    expect(() =>
      ListGroups.encodeResponse(4, {
        errorCode: 0,
        groups: [{ groupId: 'g', protocolType: '', groupType: 'x' }],
      }),
    ).toThrow(/groups\[\]\.groupType/);
    expect(() => ListGroups.encodeResponse(0, { throttleTimeMs: 1, errorCode: 0, groups: [] })).toThrow(
      /throttleTimeMs/,
    );
  });

  it('refuses versions it does not implement', () => {
    expect(() => ListGroups.encodeRequest(6, {})).toThrow(UnsupportedVersionError);
    expect(() => ListGroups.decodeResponse(-1, hex``)).toThrow(UnsupportedVersionError);
  });

  it('keeps unknown tagged fields through a decode and encode', () => {
    const body = hex`
      00 00 00 00 00 00             # ThrottleTimeMs, ErrorCode
      02 03 67 31 01                # Groups: 1, GroupId "g1", ProtocolType ""
      01 05 01 ff                   #   group tags: 1, tag 5, 1 byte ff
      01 1f 02 ab cd                # tags: 1, tag 31, 2 bytes
    `;
    const decoded = ListGroups.decodeResponse(3, body);
    expect(decoded).toStrictEqual({
      throttleTimeMs: 0,
      errorCode: 0,
      groups: [{ groupId: 'g1', protocolType: '', unknownTaggedFields: [{ tag: 5, data: hex`ff` }] }],
      unknownTaggedFields: [{ tag: 31, data: hex`ab cd` }],
    });
    expect(toHex(ListGroups.encodeResponse(3, decoded))).toBe(toHex(body));
    expect(() => ListGroups.encodeResponse(2, decoded)).toThrow(/unknownTaggedFields/);
  });

  it('survives random and corrupted bytes', () => {
    fuzz(
      ListGroups,
      versionsOf(ListGroups).map((v) => ({
        version: v,
        request: ListGroups.encodeRequest(v, request(v)),
        response: ListGroups.encodeResponse(v, response(v)),
      })),
    );
  });
});
