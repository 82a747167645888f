/**
 * Which header version a request and its response use (see headers.ts). Apart from the frame
 * helpers, so that a connection, which needs only these, does not load every codec.
 */

import type { AnyApiMessage } from './api.js';
import { ApiKey } from './api.js';

type HeaderApi = Pick<AnyApiMessage, 'apiKey' | 'flexibleFrom'>;

export function requestHeaderVersion(api: HeaderApi, version: number): 1 | 2 {
  return version >= api.flexibleFrom ? 2 : 1;
}

export function responseHeaderVersion(api: HeaderApi, version: number): 0 | 1 {
  // ApiVersions answers with header v0 in every version: see the note in messages/api-versions.ts.
  if (api.apiKey === ApiKey.ApiVersions) return 0;
  return version >= api.flexibleFrom ? 1 : 0;
}
