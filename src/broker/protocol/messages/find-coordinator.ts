/*
  FindCoordinator (API key 10), versions 0-6, flexible from 3
  (FindCoordinatorRequest.json / FindCoordinatorResponse.json)

  Request =>
    Key              string    v0-3
    KeyType          int8      v1+   (default 0: group)
    CoordinatorKeys  [string]  v4+
  Response =>
    ThrottleTimeMs   int32     v1+
    ErrorCode        int16     v0-3
    ErrorMessage     string?   v1-3  (nullable)
    NodeId           int32     v0-3
    Host             string    v0-3
    Port             int32     v0-3
    Coordinators     [Coordinator]  v4+
      Key            string
      NodeId         int32
      Host           string
      Port           int32
      ErrorCode      int16
      ErrorMessage   string?   (nullable)

  v4 turned the single lookup into a batch: the types keep both shapes, as on the wire.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';
import { ErrorCode } from '../errors.js';

/** KeyType values (FindCoordinatorRequest.CoordinatorType); share (2) needs v6. */
export const CoordinatorType = { Group: 0, Transaction: 1, Share: 2 } as const;

export interface FindCoordinatorRequest extends Tagged {
  /** v0-3: the one key looked up. */
  key?: string;
  keyType?: number;
  /** v4+: the keys looked up, each answered in `coordinators`. */
  coordinatorKeys?: string[];
}

export interface Coordinator extends Tagged {
  key: string;
  nodeId: number;
  host: string;
  port: number;
  errorCode: number;
  errorMessage: string | null;
}

export interface FindCoordinatorResponse extends Tagged {
  throttleTimeMs?: number;
  errorCode?: number;
  errorMessage?: string | null;
  nodeId?: number;
  host?: string;
  port?: number;
  coordinators?: Coordinator[];
}

function writeCoordinator(e: Encoder, c: Coordinator): void {
  e.string(c.key)
    .int32(c.nodeId)
    .string(c.host)
    .int32(c.port)
    .int16(c.errorCode)
    .nullableString(c.errorMessage);
  e.tags(c.unknownTaggedFields);
}

function readCoordinator(d: Decoder): Coordinator {
  return defined({
    key: d.string('key'),
    nodeId: d.int32(),
    host: d.string('host'),
    port: d.int32(),
    errorCode: d.int16(),
    errorMessage: d.nullableString('errorMessage'),
    unknownTaggedFields: d.tags(),
  });
}

export const FindCoordinator = defineApi<FindCoordinatorRequest, FindCoordinatorResponse>({
  apiKey: 10,
  name: 'FindCoordinator',
  minVersion: 0,
  maxVersion: 6,
  flexibleFrom: 3,

  writeRequest(e, req) {
    const v = e.version;
    if (v <= 3) e.string(req.key ?? '');
    else e.absent('key', req.key, '');
    if (v >= 1) e.int8(req.keyType ?? CoordinatorType.Group);
    else e.absent('keyType', req.keyType, CoordinatorType.Group);
    if (v >= 4) e.stringArray(req.coordinatorKeys ?? []);
    else e.absent('coordinatorKeys', req.coordinatorKeys, []);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    const v = d.version;
    return defined({
      key: v <= 3 ? d.string('key') : undefined,
      keyType: v >= 1 ? d.int8() : undefined,
      coordinatorKeys: v >= 4 ? d.stringArray('coordinatorKeys') : undefined,
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    const v = e.version;
    if (v >= 1) e.int32(res.throttleTimeMs ?? 0);
    else e.absent('throttleTimeMs', res.throttleTimeMs, 0);
    if (v <= 3) {
      e.int16(res.errorCode ?? ErrorCode.NONE);
      if (v >= 1) e.nullableString(res.errorMessage ?? null);
      else e.absent('errorMessage', res.errorMessage, null);
      e.int32(res.nodeId ?? 0)
        .string(res.host ?? '')
        .int32(res.port ?? 0);
      e.absent('coordinators', res.coordinators, []);
    } else {
      e.absent('errorCode', res.errorCode, 0);
      e.absent('errorMessage', res.errorMessage, null);
      e.absent('nodeId', res.nodeId, 0);
      e.absent('host', res.host, '');
      e.absent('port', res.port, 0);
      e.array(res.coordinators ?? [], writeCoordinator);
    }
    e.tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    const v = d.version;
    return defined({
      throttleTimeMs: v >= 1 ? d.int32() : undefined,
      errorCode: v <= 3 ? d.int16() : undefined,
      errorMessage: v >= 1 && v <= 3 ? d.nullableString('errorMessage') : undefined,
      nodeId: v <= 3 ? d.int32() : undefined,
      host: v <= 3 ? d.string('host') : undefined,
      port: v <= 3 ? d.int32() : undefined,
      coordinators: v >= 4 ? d.array(readCoordinator, 14, 'coordinators') : undefined,
      unknownTaggedFields: d.tags(),
    });
  },
});
