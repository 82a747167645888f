/*
  Request and response headers, and whole frames (int32 size + header + body) for tests and for a
  stand-in broker. (RequestHeader.json / ResponseHeader.json)

  RequestHeader v1 =>  RequestApiKey int16, RequestApiVersion int16, CorrelationId int32,
                       ClientId string? (nullable, ALWAYS int16-prefixed, even in v2)
  RequestHeader v2 =>  v1 + tagged fields
  ResponseHeader v0 => CorrelationId int32
  ResponseHeader v1 => CorrelationId int32 + tagged fields

  ClientId keeps the old string form in v2 so that a broker can read the header of an ApiVersions
  request of any version, before it knows whether that version is flexible.
*/

import type { AnyApiMessage, ApiMessage } from './api.js';
import { decodeError } from './decode-error.js';
import { requestHeaderVersion, responseHeaderVersion } from './header-versions.js';
import { Reader, type TaggedField } from './reader.js';
import { API_MESSAGES } from './registry.js';
import { Writer } from './writer.js';

export { requestHeaderVersion, responseHeaderVersion };

type HeaderApi = Pick<AnyApiMessage, 'apiKey' | 'flexibleFrom'>;

export interface RequestHeader {
  apiKey: number;
  apiVersion: number;
  correlationId: number;
  clientId: string | null;
  /** 2 when the API is known and the version flexible; 1 otherwise. */
  headerVersion: 1 | 2;
  /** Header tags this codec does not know (v2 only). */
  unknownTaggedFields?: TaggedField[];
}

export interface DecodedRequestFrame extends RequestHeader {
  /** The request body. For an API the registry does not know, the header is read as v1. */
  body: Uint8Array;
}

export interface DecodedResponseFrame<Res> {
  correlationId: number;
  response: Res;
  unknownTaggedFields?: TaggedField[];
}

function frame(write: (w: Writer) => void): Uint8Array {
  const w = new Writer();
  w.writeInt32(0); // size, patched below
  write(w);
  const out = w.finish();
  new DataView(out.buffer, out.byteOffset, out.byteLength).setInt32(0, out.length - 4);
  return out;
}

/** Reads the size prefix, which must announce exactly the bytes that follow it. */
function readSize(reader: Reader): void {
  const size = reader.readInt32();
  if (size < 0 || size !== reader.remaining) {
    reader.fail(`frame size ${size} does not match the ${reader.remaining} bytes that follow it`, 0);
  }
}

export function encodeRequestFrame<Req>(
  api: ApiMessage<Req, unknown>,
  version: number,
  correlationId: number,
  clientId: string | null,
  request: Req,
): Uint8Array {
  const body = api.encodeRequest(version, request);
  return frame((w) => {
    w.writeInt16(api.apiKey).writeInt16(version).writeInt32(correlationId).writeNullableString(clientId);
    if (requestHeaderVersion(api, version) === 2) w.writeTaggedFields();
    w.writeRaw(body);
  });
}

/**
 * Splits a request frame into header and body. Whether header tags follow ClientId depends on the
 * API and version, so `registry` says which APIs are flexible from which version.
 */
export function decodeRequestFrame(
  bytes: Uint8Array,
  registry: ReadonlyMap<number, HeaderApi> = API_MESSAGES,
): DecodedRequestFrame {
  const r = new Reader(bytes);
  try {
    readSize(r);
    const apiKey = r.readInt16();
    const apiVersion = r.readInt16();
    const correlationId = r.readInt32();
    const clientId = r.readNullableString('clientId');
    const api = registry.get(apiKey);
    const headerVersion = api ? requestHeaderVersion(api, apiVersion) : 1;
    const unknown = headerVersion === 2 ? r.readTaggedFields() : [];
    const header: DecodedRequestFrame = {
      apiKey,
      apiVersion,
      correlationId,
      clientId,
      headerVersion,
      body: bytes.slice(r.offset),
    };
    if (unknown.length > 0) header.unknownTaggedFields = unknown;
    return header;
  } catch (error) {
    throw decodeError(error, r.offset, { message: 'request header' });
  }
}

export function encodeResponseFrame<Res>(
  api: ApiMessage<unknown, Res>,
  version: number,
  correlationId: number,
  response: Res,
): Uint8Array {
  const body = api.encodeResponse(version, response);
  return frame((w) => {
    w.writeInt32(correlationId);
    if (responseHeaderVersion(api, version) === 1) w.writeTaggedFields();
    w.writeRaw(body);
  });
}

export function decodeResponseFrame<Res>(
  api: ApiMessage<unknown, Res>,
  version: number,
  bytes: Uint8Array,
): DecodedResponseFrame<Res> {
  const r = new Reader(bytes);
  let correlationId: number;
  let unknown: TaggedField[] = [];
  try {
    readSize(r);
    correlationId = r.readInt32();
    if (responseHeaderVersion(api, version) === 1) unknown = r.readTaggedFields();
  } catch (error) {
    throw decodeError(error, r.offset, {
      apiKey: api.apiKey,
      apiVersion: version,
      message: `${api.name} response header`,
    });
  }
  // Offsets in body errors count from the start of the body, not of the frame.
  const response = api.decodeResponse(version, bytes.subarray(r.offset));
  const out: DecodedResponseFrame<Res> = { correlationId, response };
  if (unknown.length > 0) out.unknownTaggedFields = unknown;
  return out;
}
