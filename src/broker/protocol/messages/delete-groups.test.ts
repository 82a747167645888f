import { describe, expect, it } from 'vitest';
import { UnsupportedFieldVersionError, UnsupportedVersionError } from '../decode-error.js';
import { expectRoundTrip, expectTruncationsFail, fuzz, hex, toHex, versionsOf } from '../test-utils.js';
import { DeleteGroups, type DeleteGroupsRequest, type DeleteGroupsResponse } from './delete-groups.js';

const request: DeleteGroupsRequest = { groupsNames: ['orders-app', 'ñ group', ''] };

const response = (v: number): DeleteGroupsResponse => ({
  throttleTimeMs: 9,
  results: [
    { groupId: 'orders-app', errorCode: 0, ...(v >= 3 && { errorMessage: null }) },
    { groupId: 'ñ group', errorCode: 68, ...(v >= 3 && { errorMessage: 'The group is not empty.' }) },
    { groupId: '', errorCode: 24, ...(v >= 3 && { errorMessage: null }) },
  ],
});

// Golden bodies, derived by hand from DeleteGroupsRequest.json / DeleteGroupsResponse.json.
const REQUEST_V0 = hex`
  00 00 00 02                   # GroupsNames: 2 (int32 count)
  00 02 67 31                   #   "g1" (int16 length)
  00 02 67 32                   #   "g2"
`;
const REQUEST_V2 = hex`
  03                            # GroupsNames: 2 (compact: 2 + 1)
  03 67 31                      #   "g1" (compact: length 2 + 1)
  03 67 32                      #   "g2"
  00                            # tagged fields
`;
const RESPONSE_V1 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  00 00 00 01                   # Results: 1
  00 02 67 31                   #   GroupId "g1"
  00 44                         #   ErrorCode 68 (NON_EMPTY_GROUP)
`;
const RESPONSE_V3 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  03                            # Results: 2
  03 67 31                      #   GroupId "g1"
  00 45                         #   ErrorCode 69 (GROUP_ID_NOT_FOUND)
  02 78                         #   ErrorMessage "x"
  00                            #   result tagged fields
  03 67 32                      #   GroupId "g2"
  00 00                         #   ErrorCode 0
  00                            #   ErrorMessage null
  00                            #   result tagged fields
  00                            # tagged fields
`;

describe('DeleteGroups codec', () => {
  it('has the key and versions of the schema (v3 from Kafka 4.4)', () => {
    expect(DeleteGroups).toMatchObject({
      apiKey: 42,
      name: 'DeleteGroups',
      minVersion: 0,
      maxVersion: 3,
      flexibleFrom: 2,
    });
  });

  it.each(versionsOf(DeleteGroups))('round-trips request and response v%i', (v) => {
    expectRoundTrip(DeleteGroups, v, request, response(v));
  });

  it('matches golden bytes', () => {
    const req = { groupsNames: ['g1', 'g2'] };
    for (const v of [0, 1]) {
      expect(toHex(DeleteGroups.encodeRequest(v, req))).toBe(toHex(REQUEST_V0));
      expect(DeleteGroups.decodeRequest(v, REQUEST_V0)).toStrictEqual(req);
    }
    for (const v of [2, 3]) {
      expect(toHex(DeleteGroups.encodeRequest(v, req))).toBe(toHex(REQUEST_V2));
      expect(DeleteGroups.decodeRequest(v, REQUEST_V2)).toStrictEqual(req);
    }
    const res1 = { throttleTimeMs: 0, results: [{ groupId: 'g1', errorCode: 68 }] };
    expect(toHex(DeleteGroups.encodeResponse(1, res1))).toBe(toHex(RESPONSE_V1));
    expect(DeleteGroups.decodeResponse(1, RESPONSE_V1)).toStrictEqual(res1);
    expect(DeleteGroups.decodeResponse(0, RESPONSE_V1)).toStrictEqual(res1);
    const res3 = {
      throttleTimeMs: 0,
      results: [
        { groupId: 'g1', errorCode: 69, errorMessage: 'x' },
        { groupId: 'g2', errorCode: 0, errorMessage: null },
      ],
    };
    expect(toHex(DeleteGroups.encodeResponse(3, res3))).toBe(toHex(RESPONSE_V3));
    expect(DeleteGroups.decodeResponse(3, RESPONSE_V3)).toStrictEqual(res3);
  });

  it('fails cleanly on every truncation of the golden bodies and on a trailing byte', () => {
    expectTruncationsFail((b) => DeleteGroups.decodeRequest(0, b), REQUEST_V0);
    expectTruncationsFail((b) => DeleteGroups.decodeRequest(2, b), REQUEST_V2);
    expectTruncationsFail((b) => DeleteGroups.decodeResponse(1, b), RESPONSE_V1);
    expectTruncationsFail((b) => DeleteGroups.decodeResponse(3, b), RESPONSE_V3);
  });

  it('refuses an error message before v3, and accepts its default', () => {
    expect(() => DeleteGroups.encodeResponse(2, response(3))).toThrow(UnsupportedFieldVersionError);
    expect(() => DeleteGroups.encodeResponse(2, response(3))).toThrow(/results\[\]\.errorMessage/);
    const nulls = {
      throttleTimeMs: 0,
      results: [{ groupId: 'g1', errorCode: 0, errorMessage: null }],
    };
    expect(DeleteGroups.encodeResponse(2, nulls)).toEqual(
      DeleteGroups.encodeResponse(2, { throttleTimeMs: 0, results: [{ groupId: 'g1', errorCode: 0 }] }),
    );
  });

  it('refuses versions it does not implement', () => {
    expect(() => DeleteGroups.encodeRequest(4, request)).toThrow(UnsupportedVersionError);
  });

  it('keeps unknown tagged fields through a decode and encode', () => {
    const body = hex`
      02 03 67 31                 # GroupsNames: 1, "g1"
      01 04 01 2a                 # tags: 1, tag 4, 1 byte 2a
    `;
    const decoded = DeleteGroups.decodeRequest(2, body);
    expect(decoded).toStrictEqual({ groupsNames: ['g1'], unknownTaggedFields: [{ tag: 4, data: hex`2a` }] });
    expect(toHex(DeleteGroups.encodeRequest(2, decoded))).toBe(toHex(body));
    expect(() => DeleteGroups.encodeRequest(1, decoded)).toThrow(/unknownTaggedFields/);
  });

  it('survives random and corrupted bytes', () => {
    fuzz(
      DeleteGroups,
      versionsOf(DeleteGroups).map((v) => ({
        version: v,
        request: DeleteGroups.encodeRequest(v, request),
        response: DeleteGroups.encodeResponse(v, response(v)),
      })),
    );
  });
});
