/**
 * The contract every RPC codec implements, and the wrapper that gives them all the same edges:
 * versions outside the codec's range are refused, a decode must use up the whole body, and any
 * failure comes out as a ProtocolError that names the RPC and version.
 */

import { Decoder, Encoder } from './codec.js';
import { decodeError, encodeError, UnsupportedVersionError } from './decode-error.js';
import { Reader } from './reader.js';

export interface ApiMessage<Req, Res> {
  readonly apiKey: number;
  readonly name: string; // 'ListGroups'
  readonly minVersion: number; // lowest version this codec implements
  readonly maxVersion: number; // highest version this codec implements
  readonly flexibleFrom: number; // first flexible version (Infinity if none)
  encodeRequest(version: number, request: Req): Uint8Array; // request BODY only (no header)
  decodeRequest(version: number, body: Uint8Array): Req;
  encodeResponse(version: number, response: Res): Uint8Array; // response BODY only
  decodeResponse(version: number, body: Uint8Array): Res;
}

/** Any codec, for registries; ApiMessage's methods are bivariant, so every ApiMessage fits. */
export type AnyApiMessage = ApiMessage<unknown, unknown>;

/** Kafka's API keys, those this product speaks now and the group RPCs it will. */
export const ApiKey = {
  Fetch: 1,
  ListOffsets: 2,
  Metadata: 3,
  OffsetCommit: 8,
  OffsetFetch: 9,
  FindCoordinator: 10,
  LeaveGroup: 13,
  DescribeGroups: 15,
  ListGroups: 16,
  ApiVersions: 18,
  DescribeConfigs: 32,
  DeleteGroups: 42,
  IncrementalAlterConfigs: 44,
  OffsetDelete: 47,
  DescribeCluster: 60,
  ConsumerGroupDescribe: 69,
  ShareGroupDescribe: 77,
  StreamsGroupDescribe: 89,
  DescribeShareGroupOffsets: 90,
  AlterShareGroupOffsets: 91,
  DeleteShareGroupOffsets: 92,
} as const;

export interface MessageSpec<Req, Res> {
  apiKey: number;
  name: string;
  minVersion: number;
  maxVersion: number;
  flexibleFrom: number;
  writeRequest(e: Encoder, request: Req): void;
  readRequest(d: Decoder): Req;
  writeResponse(e: Encoder, response: Res): void;
  readResponse(d: Decoder): Res;
}

export function defineApi<Req, Res>(spec: MessageSpec<Req, Res>): ApiMessage<Req, Res> {
  const { apiKey, name, minVersion, maxVersion, flexibleFrom } = spec;

  const check = (version: number) => {
    if (!Number.isInteger(version) || version < minVersion || version > maxVersion) {
      throw new UnsupportedVersionError(name, version, minVersion, maxVersion, apiKey);
    }
  };

  function encode<T>(part: 'request' | 'response', write: (e: Encoder, value: T) => void) {
    return (version: number, value: T): Uint8Array => {
      check(version);
      const e = new Encoder(version, version >= flexibleFrom);
      try {
        write(e, value);
      } catch (error) {
        throw encodeError(error, { apiKey, apiVersion: version, message: `${name} ${part}` });
      }
      return e.finish();
    };
  }

  function decode<T>(part: 'request' | 'response', read: (d: Decoder) => T) {
    return (version: number, body: Uint8Array): T => {
      check(version);
      const reader = new Reader(body);
      try {
        const value = read(new Decoder(reader, version, version >= flexibleFrom));
        reader.expectEnd();
        return value;
      } catch (error) {
        throw decodeError(error, reader.offset, { apiKey, apiVersion: version, message: `${name} ${part}` });
      }
    };
  }

  return Object.freeze({
    apiKey,
    name,
    minVersion,
    maxVersion,
    flexibleFrom,
    encodeRequest: encode('request', spec.writeRequest),
    decodeRequest: decode('request', spec.readRequest),
    encodeResponse: encode('response', spec.writeResponse),
    decodeResponse: decode('response', spec.readResponse),
  });
}
