/**
 * Between the codec and a Link: which version of an RPC to speak, the request body as the Link
 * sends it, and the answer's bytes read back into an object.
 */

import { BrokerResponseError } from '../errors.js';
import type { ApiMessage } from '../protocol/api.js';
import { requestHeaderVersion, responseHeaderVersion } from '../protocol/header-versions.js';
import {
  ApiVersions,
  type ApiVersionsResponse,
  decodeApiVersionsFallback,
} from '../protocol/messages/api-versions.js';
import { Reader } from '../protocol/reader.js';
import type { VersionRange } from './link.js';

/** Highest version both sides speak, within optional bounds the caller needs (e.g. a field from v4). */
export function pickVersion(
  own: VersionRange,
  broker: VersionRange | undefined,
  bounds: Partial<VersionRange> = {},
): number | undefined {
  if (!broker) return undefined;
  const max = Math.min(own.max, broker.max, bounds.max ?? Number.POSITIVE_INFINITY);
  const min = Math.max(own.min, broker.min, bounds.min ?? Number.NEGATIVE_INFINITY);
  return max >= min ? max : undefined;
}

/**
 * The request body as the Link sends it: the Link writes request header v1, and the flexible
 * header v2 only adds an empty tag section.
 */
export function requestBody<Req>(api: ApiMessage<Req, unknown>, version: number, request: Req): Uint8Array {
  const body = api.encodeRequest(version, request);
  return requestHeaderVersion(api, version) >= 2 ? prefixEmptyTags(body) : body;
}

/** The answer of `api` at `version`, its flexible header's tag section skipped where it has one. */
export function decodeAnswer<Res>(
  label: string,
  api: ApiMessage<unknown, Res>,
  version: number,
  bytes: Uint8Array,
): Res {
  const tags = responseHeaderVersion(api, version) >= 1;
  try {
    let offset = 0;
    if (tags) {
      const reader = new Reader(bytes);
      reader.readTaggedFields();
      offset = reader.offset;
    }
    return api.decodeResponse(version, bytes.subarray(offset));
  } catch (error) {
    if (api.apiKey === ApiVersions.apiKey) {
      // An unsupported ApiVersions version is answered in v0 whatever was asked.
      const fallback: ApiVersionsResponse | undefined = decodeApiVersionsFallback(bytes);
      if (fallback) return fallback as Res;
    }
    throw new BrokerResponseError(label, api.name, version, messageOf(error), { cause: error });
  }
}

function prefixEmptyTags(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.byteLength + 1);
  out.set(body, 1);
  return out;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
