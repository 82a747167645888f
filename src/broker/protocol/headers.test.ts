import { describe, expect, it } from 'vitest';
import { ProtocolDecodeError } from './decode-error.js';
import {
  decodeRequestFrame,
  decodeResponseFrame,
  encodeRequestFrame,
  encodeResponseFrame,
  requestHeaderVersion,
  responseHeaderVersion,
} from './headers.js';
import { ApiVersions } from './messages/api-versions.js';
import { DescribeGroups } from './messages/describe-groups.js';
import { FindCoordinator } from './messages/find-coordinator.js';
import { ListGroups } from './messages/list-groups.js';
import { Metadata } from './messages/metadata.js';
import { decodeFailure, expectTruncationsFail, hex, toHex } from './test-utils.js';

describe('header versions', () => {
  it('use header v2 / v1 from the first flexible version', () => {
    expect([2, 3].map((v) => requestHeaderVersion(ListGroups, v))).toEqual([1, 2]);
    expect([2, 3].map((v) => responseHeaderVersion(ListGroups, v))).toEqual([0, 1]);
    expect([4, 5].map((v) => requestHeaderVersion(DescribeGroups, v))).toEqual([1, 2]);
    expect([8, 9].map((v) => responseHeaderVersion(Metadata, v))).toEqual([0, 1]);
    expect([2, 3].map((v) => responseHeaderVersion(FindCoordinator, v))).toEqual([0, 1]);
  });

  it('keep the ApiVersions response header at v0 in every version, but not its request header', () => {
    expect([0, 1, 2, 3, 4].map((v) => responseHeaderVersion(ApiVersions, v))).toEqual([0, 0, 0, 0, 0]);
    expect([2, 3].map((v) => requestHeaderVersion(ApiVersions, v))).toEqual([1, 2]);
  });
});

// Frames derived by hand from RequestHeader.json / ResponseHeader.json and the body schemas.
const LIST_GROUPS_V5_REQUEST = hex`
  00 00 00 0f                   # size 15
  00 10                         # RequestApiKey 16
  00 05                         # RequestApiVersion 5
  00 00 00 07                   # CorrelationId 7
  00 01 63                      # ClientId "c" (int16 length even in header v2)
  00                            # header tagged fields (v2)
  01                            # StatesFilter: empty
  01                            # TypesFilter: empty
  00                            # tagged fields
`;
const LIST_GROUPS_V2_REQUEST = hex`
  00 00 00 0b                   # size 11
  00 10 00 02                   # ListGroups v2
  00 00 00 07                   # CorrelationId 7
  00 01 63                      # ClientId "c"; header v1 has no tags, the v2 body is empty
`;
const API_VERSIONS_V3_RESPONSE = hex`
  00 00 00 0c                   # size 12
  00 00 00 07                   # CorrelationId 7 (header v0: no tags, though v3 is flexible)
  00 00                         # ErrorCode 0
  01                            # ApiKeys: 0
  00 00 00 00                   # ThrottleTimeMs 0
  00                            # tagged fields
`;
const LIST_GROUPS_V3_RESPONSE = hex`
  00 00 00 0d                   # size 13
  00 00 00 07                   # CorrelationId 7
  00                            # header tagged fields (v1)
  00 00 00 00                   # ThrottleTimeMs 0
  00 00                         # ErrorCode 0
  01                            # Groups: 0
  00                            # tagged fields
`;

describe('frames', () => {
  it('encode requests with the header of their version', () => {
    expect(toHex(encodeRequestFrame(ListGroups, 5, 7, 'c', { statesFilter: [], typesFilter: [] }))).toBe(
      toHex(LIST_GROUPS_V5_REQUEST),
    );
    expect(toHex(encodeRequestFrame(ListGroups, 2, 7, 'c', {}))).toBe(toHex(LIST_GROUPS_V2_REQUEST));
  });

  it('decode requests, skipping header tags only for flexible versions', () => {
    expect(decodeRequestFrame(LIST_GROUPS_V5_REQUEST)).toStrictEqual({
      apiKey: 16,
      apiVersion: 5,
      correlationId: 7,
      clientId: 'c',
      headerVersion: 2,
      body: hex`01 01 00`,
    });
    expect(decodeRequestFrame(LIST_GROUPS_V2_REQUEST)).toStrictEqual({
      apiKey: 16,
      apiVersion: 2,
      correlationId: 7,
      clientId: 'c',
      headerVersion: 1,
      body: hex``,
    });
  });

  it('read an API missing from the registry with header v1, and a null client id', () => {
    // SaslHandshake (17) v1 with a null ClientId and a 2-byte body.
    const frame = hex`00 00 00 0c  00 11 00 01  00 00 00 09  ff ff  00 00`;
    expect(decodeRequestFrame(frame)).toStrictEqual({
      apiKey: 17,
      apiVersion: 1,
      correlationId: 9,
      clientId: null,
      headerVersion: 1,
      body: hex`00 00`,
    });
    // With a registry that knows it as flexible from 0, the header tags are read.
    const flexible = hex`00 00 00 0b  00 11 00 01  00 00 00 09  ff ff  00`;
    expect(decodeRequestFrame(flexible, new Map([[17, { apiKey: 17, flexibleFrom: 0 }]])).headerVersion).toBe(
      2,
    );
  });

  it('round-trip responses, ApiVersions without header tags', () => {
    const response = { throttleTimeMs: 0, errorCode: 0, apiKeys: [] };
    const apiVersions = encodeResponseFrame(ApiVersions, 3, 7, {
      ...response,
      supportedFeatures: [],
      finalizedFeaturesEpoch: -1n,
      finalizedFeatures: [],
      zkMigrationReady: false,
    });
    expect(toHex(apiVersions)).toBe(toHex(API_VERSIONS_V3_RESPONSE));
    expect(decodeResponseFrame(ApiVersions, 3, apiVersions).correlationId).toBe(7);

    const listGroups = { throttleTimeMs: 0, errorCode: 0, groups: [] };
    const frame = encodeResponseFrame(ListGroups, 3, 7, listGroups);
    expect(toHex(frame)).toBe(toHex(LIST_GROUPS_V3_RESPONSE));
    expect(decodeResponseFrame(ListGroups, 3, frame)).toStrictEqual({
      correlationId: 7,
      response: listGroups,
    });
  });

  it('keep unknown header tags', () => {
    const frame = hex`00 00 00 10  00 00 00 07  01 02 01 aa  00 00 00 00  00 00  01  00`;
    expect(decodeResponseFrame(ListGroups, 3, frame)).toStrictEqual({
      correlationId: 7,
      response: { throttleTimeMs: 0, errorCode: 0, groups: [] },
      unknownTaggedFields: [{ tag: 2, data: hex`aa` }],
    });
  });

  it('fail on every truncation, and on a size that does not match the frame', () => {
    expectTruncationsFail((b) => decodeResponseFrame(ListGroups, 3, b), LIST_GROUPS_V3_RESPONSE);
    expectTruncationsFail((b) => decodeResponseFrame(ApiVersions, 3, b), API_VERSIONS_V3_RESPONSE);
    expectTruncationsFail(decodeRequestFrame, LIST_GROUPS_V5_REQUEST);
    expect(decodeFailure(() => decodeRequestFrame(hex`ff ff ff ff 00`)).reason).toMatch(/frame size -1/);
    expect(decodeFailure(() => decodeRequestFrame(hex`00 00 00 01`)).reason).toMatch(/frame size 1/);
  });

  it('report body errors with the RPC and version', () => {
    const frame = hex`00 00 00 07  00 00 00 07  00  00 00`;
    const error = decodeFailure(() => decodeResponseFrame(ListGroups, 3, frame));
    expect(error).toBeInstanceOf(ProtocolDecodeError);
    expect(error).toMatchObject({ apiKey: 16, apiVersion: 3 });
  });
});
