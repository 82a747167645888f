/**
 * A stand-in broker for fault injection: a loopback TCP server that reads Kafka request frames
 * with the project's codec and answers them, well-formed by default, or as a test scripted it
 * (an error code, garbage bytes, a truncated frame, a stall, a closed socket).
 *
 * Only for faults a real broker will not produce; everything else is tested against a real broker.
 * It serves ApiVersions, Metadata and FindCoordinator (itself as node 1, the only broker and every
 * coordinator), ListGroups and DescribeGroups (from `groups`), at every version the codec implements;
 * a request for any other API is recorded in `problems` and its connection closed.
 */

import { createServer, type Server, type Socket } from 'node:net';
import {
  type AnyApiMessage,
  ApiKey,
  type ApiVersion,
  ApiVersions,
  AUTHORIZED_OPERATIONS_OMITTED,
  type DescribedGroup,
  DescribeGroups,
  type DescribeGroupsRequest,
  decodeRequestFrame,
  ErrorCode,
  encodeResponseFrame,
  FindCoordinator,
  type FindCoordinatorRequest,
  ListGroups,
  Metadata,
  responseHeaderVersion,
  ShareGroupDescribe,
  type ShareGroupDescribeRequest,
  Writer,
} from '../../src/broker/protocol/index.js';

const NODE_ID = 1;

/** One request the stand-in received. */
export interface Call {
  apiKey: number;
  version: number;
  correlationId: number;
  /** The decoded request body. */
  request: unknown;
  /** Which accepted connection (1, 2, ...) it came on. */
  connection: number;
}

export type Reply =
  /** The usual answer of this stand-in (ApiVersions, Metadata, FindCoordinator, groups). */
  | { kind: 'normal' }
  /** `body` encoded at `version` (default: the request's version). */
  | { kind: 'response'; body: unknown; version?: number }
  /** A well-formed answer carrying Kafka error `code` wherever this API has an error code. */
  | { kind: 'error'; code: number }
  /** A correct frame size and response header, then `bytes` as the body. */
  | { kind: 'garbage'; bytes: Uint8Array }
  /** The first half of the normal answer's frame (its size prefix promises the whole), then maybe a close. */
  | { kind: 'truncated'; close?: boolean }
  /** No answer at all; the socket stays open. */
  | { kind: 'stall' }
  /** The socket is closed instead of answering. */
  | { kind: 'close' };

/** A reply, or a function of the call that returns one (for replies that depend on the version). */
export type Script = Reply | ((call: Call) => Reply);

export const reply = {
  normal: (): Reply => ({ kind: 'normal' }),
  response: (body: unknown, options: { version?: number } = {}): Reply => ({
    kind: 'response',
    body,
    ...options,
  }),
  error: (code: number): Reply => ({ kind: 'error', code }),
  garbage: (
    bytes: Uint8Array = Uint8Array.of(0xde, 0xad, 0xbe, 0xef, 0xff, 0xff, 0xff, 0x7f, 0x01),
  ): Reply => ({
    kind: 'garbage',
    bytes,
  }),
  truncated: (options: { close?: boolean } = {}): Reply => ({ kind: 'truncated', ...options }),
  stall: (): Reply => ({ kind: 'stall' }),
  close: (): Reply => ({ kind: 'close' }),
};

/** The APIs the stand-in answers; it advertises the versions the codec implements for each. */
const SERVED: readonly AnyApiMessage[] = [ApiVersions, Metadata, FindCoordinator, ListGroups, DescribeGroups];
/** Served, and advertised, only when a test asks (`serveShareGroups`): a cluster with share groups. */
const SHARE: readonly AnyApiMessage[] = [ShareGroupDescribe];

const BY_KEY = new Map([...SERVED, ...SHARE].map((api) => [api.apiKey, api]));

function served(apiKey: number): AnyApiMessage {
  const api = BY_KEY.get(apiKey);
  if (!api) throw new Error(`the stand-in does not serve API key ${apiKey}`);
  return api;
}

/** The stand-in's ApiVersions list, with `overrides` for the ranges a test wants different. */
export function codecApiVersions(
  overrides: Record<number, { minVersion: number; maxVersion: number }> = {},
  withShareGroups = false,
): ApiVersion[] {
  return [...SERVED, ...(withShareGroups ? SHARE : [])].map((api) => ({
    apiKey: api.apiKey,
    minVersion: overrides[api.apiKey]?.minVersion ?? api.minVersion,
    maxVersion: overrides[api.apiKey]?.maxVersion ?? api.maxVersion,
  }));
}

export class StandInBroker {
  /** Every request received, in order. */
  readonly calls: Call[] = [];
  /** Groups DescribeGroups and ListGroups answer with; other group ids do not exist. */
  readonly groups = new Map<string, DescribedGroup>();
  /** Requests the stand-in itself could not read (a test should expect none). */
  readonly problems: string[] = [];
  private readonly scripts = new Map<number, Script[]>();
  private readonly fallbacks = new Map<number, Script>();
  private readonly sockets = new Set<Socket>();
  private accepted = 0;
  /** Whether ShareGroupDescribe is advertised and answered (no share group exists unless scripted). */
  serveShareGroups = false;

  private constructor(
    private readonly server: Server,
    readonly host: string,
    readonly port: number,
  ) {
    server.on('connection', (socket) => this.serve(socket));
  }

  static async start(): Promise<StandInBroker> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === 'string')
      throw new Error('stand-in broker has no TCP address');
    return new StandInBroker(server, '127.0.0.1', address.port);
  }

  /** `host:port`, as the project labels brokers. */
  get address(): string {
    return `${this.host}:${this.port}`;
  }

  /** Connections accepted since the last reset. */
  get connections(): number {
    return this.accepted;
  }

  /** Connections open now. */
  get openConnections(): number {
    return this.sockets.size;
  }

  /** Replies for the next calls of `apiKey`, in order; after them, the fallback answers. */
  script(apiKey: number, ...replies: Script[]): this {
    this.scripts.set(apiKey, [...(this.scripts.get(apiKey) ?? []), ...replies]);
    return this;
  }

  /** The reply to every call of `apiKey` once its script is used up (default: normal). */
  otherwise(apiKey: number, script: Script): this {
    this.fallbacks.set(apiKey, script);
    return this;
  }

  count(apiKey: number): number {
    return this.calls.filter((c) => c.apiKey === apiKey).length;
  }

  versions(apiKey: number): number[] {
    return this.calls.filter((c) => c.apiKey === apiKey).map((c) => c.version);
  }

  /** Forgets scripts, calls, groups, problems and the connection count; closes the open connections. */
  reset(): void {
    this.accepted = 0;
    this.calls.length = 0;
    this.problems.length = 0;
    this.groups.clear();
    this.scripts.clear();
    this.fallbacks.clear();
    this.serveShareGroups = false;
    this.dropConnections();
  }

  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  async stop(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: Socket): void {
    const connection = ++this.accepted;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      // Any number of whole frames, then keep the partial one for the next chunk.
      while (buffered.length >= 4) {
        const size = buffered.readInt32BE(0);
        if (buffered.length < 4 + size) break;
        const frame = buffered.subarray(0, 4 + size);
        buffered = buffered.subarray(4 + size);
        if (!this.handle(socket, connection, frame)) return;
      }
    });
  }

  /** Answers one frame; false when the socket was closed. */
  private handle(socket: Socket, connection: number, frame: Uint8Array): boolean {
    try {
      const header = decodeRequestFrame(frame);
      const api = BY_KEY.get(header.apiKey);
      if (!api) throw new Error(`the stand-in does not serve API key ${header.apiKey}`);
      const call: Call = {
        apiKey: header.apiKey,
        version: header.apiVersion,
        correlationId: header.correlationId,
        request: api.decodeRequest(header.apiVersion, header.body),
        connection,
      };
      this.calls.push(call);
      const script =
        this.scripts.get(call.apiKey)?.shift() ?? this.fallbacks.get(call.apiKey) ?? reply.normal();
      return this.answer(socket, call, typeof script === 'function' ? script(call) : script);
    } catch (error) {
      // A request it cannot read or answer: recorded for the test, and the connection closed, as a
      // real broker closes a connection whose request it cannot read.
      this.problems.push(error instanceof Error ? error.message : String(error));
      socket.destroy();
      return false;
    }
  }

  private answer(socket: Socket, call: Call, answer: Reply): boolean {
    switch (answer.kind) {
      case 'stall':
        return true;
      case 'close':
        socket.destroy();
        return false;
      case 'truncated': {
        const whole = this.encode(call, this.normal(call));
        socket.write(whole.subarray(0, Math.max(5, Math.floor(whole.length / 2))));
        if (!answer.close) return true;
        socket.end();
        return false;
      }
      case 'garbage':
        socket.write(this.garbageFrame(call, answer.bytes));
        return true;
      case 'error':
        socket.write(this.encode(call, this.error(call, answer.code)));
        return true;
      case 'response':
        socket.write(this.encode(call, answer.body, answer.version));
        return true;
      case 'normal':
        socket.write(this.encode(call, this.normal(call)));
        return true;
    }
  }

  private encode(call: Call, body: unknown, version = call.version): Uint8Array {
    const api = served(call.apiKey);
    return encodeResponseFrame(api, version, call.correlationId, body);
  }

  private garbageFrame(call: Call, bytes: Uint8Array): Uint8Array {
    const api = served(call.apiKey);
    const w = new Writer();
    w.writeInt32(0).writeInt32(call.correlationId);
    if (responseHeaderVersion(api, call.version) === 1) w.writeTaggedFields();
    w.writeRaw(bytes);
    const out = w.finish();
    new DataView(out.buffer, out.byteOffset, out.byteLength).setInt32(0, out.length - 4);
    return out;
  }

  /** The well-formed answer: itself as the only broker and every coordinator; groups from `groups`. */
  private normal(call: Call): unknown {
    const v = call.version;
    const self = { nodeId: NODE_ID, host: this.host, port: this.port };
    switch (call.apiKey) {
      case ApiKey.ApiVersions:
        return {
          errorCode: ErrorCode.NONE,
          apiKeys: codecApiVersions({}, this.serveShareGroups),
          throttleTimeMs: 0,
        };
      case ApiKey.Metadata:
        return {
          throttleTimeMs: 0,
          brokers: [{ ...self, rack: null }],
          ...(v >= 2 && { clusterId: 'stand-in-cluster' }),
          ...(v >= 1 && { controllerId: NODE_ID }),
          topics: [],
        };
      case ApiKey.FindCoordinator:
        return this.coordinators(call, (key) => ({
          key,
          ...self,
          errorCode: ErrorCode.NONE,
          errorMessage: null,
        }));
      case ApiKey.ListGroups:
        return {
          throttleTimeMs: 0,
          errorCode: ErrorCode.NONE,
          groups: [...this.groups.values()].map((g) => ({
            groupId: g.groupId,
            protocolType: g.protocolType,
            ...(v >= 4 && { groupState: g.groupState }),
            ...(v >= 5 && { groupType: 'Classic' }),
          })),
        };
      case ApiKey.DescribeGroups:
        return {
          throttleTimeMs: 0,
          groups: (call.request as DescribeGroupsRequest).groups.map(
            (groupId) =>
              this.groups.get(groupId) ??
              // Before v6 Kafka answers a missing group as Dead with no error.
              describedGroup(groupId, {
                errorCode: v >= 6 ? ErrorCode.GROUP_ID_NOT_FOUND : ErrorCode.NONE,
                groupState: 'Dead',
              }),
          ),
        };
      case ApiKey.ShareGroupDescribe:
        return this.shareGroups(call, (groupId) => ({
          errorCode: ErrorCode.GROUP_ID_NOT_FOUND,
          errorMessage: `Group ${groupId} not found.`,
        }));
      default:
        throw new Error(`no normal answer for API key ${call.apiKey}`);
    }
  }

  private error(call: Call, code: number): unknown {
    switch (call.apiKey) {
      case ApiKey.ApiVersions:
        return { errorCode: code, apiKeys: [], throttleTimeMs: 0 };
      case ApiKey.FindCoordinator:
        return this.coordinators(call, (key) => ({
          key,
          nodeId: -1,
          host: '',
          port: -1,
          errorCode: code,
          errorMessage: null,
        }));
      case ApiKey.ListGroups:
        return { throttleTimeMs: 0, errorCode: code, groups: [] };
      case ApiKey.DescribeGroups:
        return {
          throttleTimeMs: 0,
          groups: (call.request as DescribeGroupsRequest).groups.map((groupId) =>
            describedGroup(groupId, { errorCode: code }),
          ),
        };
      case ApiKey.ShareGroupDescribe:
        return this.shareGroups(call, () => ({ errorCode: code, errorMessage: null }));
      default:
        throw new Error(`no error answer for API key ${call.apiKey}`);
    }
  }

  /** A ShareGroupDescribe answer with one entry per group asked, each with `error`'s code. */
  private shareGroups(
    call: Call,
    error: (groupId: string) => { errorCode: number; errorMessage: string | null },
  ): unknown {
    return {
      throttleTimeMs: 0,
      groups: (call.request as ShareGroupDescribeRequest).groupIds.map((groupId) => ({
        ...error(groupId),
        groupId,
        groupState: '',
        groupEpoch: -1,
        assignmentEpoch: -1,
        assignorName: '',
        members: [],
        authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
      })),
    };
  }

  /** FindCoordinator's two shapes: one key before v4, a batch from v4. */
  private coordinators(
    call: Call,
    entry: (key: string) => {
      key: string;
      nodeId: number;
      host: string;
      port: number;
      errorCode: number;
      errorMessage: null;
    },
  ): unknown {
    const request = call.request as FindCoordinatorRequest;
    if (call.version >= 4)
      return { throttleTimeMs: 0, coordinators: (request.coordinatorKeys ?? []).map(entry) };
    const { key: _key, ...single } = entry(request.key ?? '');
    return { throttleTimeMs: 0, ...single };
  }
}

/** A DescribeGroups entry with Kafka's defaults for whatever `fields` leaves out. */
export function describedGroup(groupId: string, fields: Partial<DescribedGroup> = {}): DescribedGroup {
  return {
    errorCode: ErrorCode.NONE,
    errorMessage: null,
    groupId,
    groupState: 'Stable',
    protocolType: 'consumer',
    protocolData: 'range',
    members: [],
    authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
    ...fields,
  };
}
