/**
 * One broker connection: kafkajs carries the bytes (socket factory, TLS, SASL, correlation ids,
 * request timeouts) and this project's codec writes and reads them. The version of every RPC is
 * negotiated with this broker's ApiVersions answer, so one code path serves Kafka 3.x and 4.x.
 */

import type { ConnectionOptions as TlsOptions } from 'node:tls';
import type { ISocketFactory, SASLOptions } from 'kafkajs';
import Connection from 'kafkajs/src/network/connection.js';
import Encoder from 'kafkajs/src/protocol/encoder.js';
import {
  BrokerResponseError,
  BrokerTimeoutError,
  BrokerUnavailableError,
  KafkaResponseError,
  UnsupportedApiError,
} from '../errors.js';
import type { ApiMessage } from '../protocol/api.js';
import { requestHeaderVersion, responseHeaderVersion } from '../protocol/headers.js';
import {
  ApiVersions,
  type ApiVersionsResponse,
  decodeApiVersionsFallback,
} from '../protocol/messages/api-versions.js';
import { Reader } from '../protocol/reader.js';

export interface BrokerAddress {
  host: string;
  port: number;
}

export interface ConnectionSettings {
  clientId: string;
  ssl: TlsOptions | null;
  sasl: SASLOptions | null;
  socketFactory: ISocketFactory;
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
  /** kafkajs logger (see logging.ts). */
  logger: unknown;
}

export interface VersionRange {
  min: number;
  max: number;
}

const SASL_AUTHENTICATE = 36;
const UNSUPPORTED_VERSION = 35;
const CLIENT_SOFTWARE = { clientSoftwareName: 'kafka-groups-rest', clientSoftwareVersion: '0.1.0' };

export function formatAddress({ host, port }: BrokerAddress): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

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

export class BrokerConnection {
  readonly label: string;
  private connection: Connection;
  private negotiation: { promise: Promise<Map<number, VersionRange>>; settled: boolean } | undefined;

  constructor(
    readonly address: BrokerAddress,
    private readonly settings: ConnectionSettings,
  ) {
    this.label = formatAddress(address);
    this.connection = this.create();
  }

  /**
   * The broker's version range per API key, asked once per connection. Concurrent callers share
   * one negotiation; a connection that dropped since is replaced and asked again.
   */
  apiVersions(): Promise<Map<number, VersionRange>> {
    const current = this.negotiation;
    if (current && (!current.settled || this.connection.isConnected())) return current.promise;
    if (current) this.replace();
    const entry = { promise: this.negotiate(), settled: false };
    this.negotiation = entry;
    entry.promise.then(
      () => {
        entry.settled = true;
      },
      () => {
        entry.settled = true;
        // A failed negotiation is not kept: the next call starts afresh.
        if (this.negotiation === entry) this.negotiation = undefined;
      },
    );
    return entry.promise;
  }

  /** The version `send` would use for `api`, or undefined when there is none in common. */
  async versionFor(
    api: ApiMessage<unknown, unknown>,
    bounds?: Partial<VersionRange>,
  ): Promise<number | undefined> {
    const versions = await this.apiVersions();
    return pickVersion({ min: api.minVersion, max: api.maxVersion }, versions.get(api.apiKey), bounds);
  }

  /**
   * Sends `api` at the highest common version. `request` may depend on the version, for RPCs whose
   * shape changed (FindCoordinator v4 batches its keys).
   */
  async send<Req, Res>(
    api: ApiMessage<Req, Res>,
    request: Req | ((version: number) => Req),
    bounds?: Partial<VersionRange>,
  ): Promise<{ version: number; response: Res }> {
    const versions = await this.apiVersions();
    const own = { min: api.minVersion, max: api.maxVersion };
    const version = pickVersion(own, versions.get(api.apiKey), bounds);
    if (version === undefined) {
      const range = versions.get(api.apiKey);
      throw new UnsupportedApiError(this.label, api.name, range, own);
    }
    const body = typeof request === 'function' ? (request as (v: number) => Req)(version) : request;
    const response = await this.exchange(api, version, body);
    return { version, response };
  }

  async close(): Promise<void> {
    this.negotiation = undefined;
    await this.connection.disconnect().catch(() => undefined);
  }

  isConnected(): boolean {
    return this.connection.isConnected();
  }

  private create(): Connection {
    const { settings, address } = this;
    return new Connection({
      host: address.host,
      port: address.port,
      logger: settings.logger,
      socketFactory: settings.socketFactory,
      requestTimeout: settings.requestTimeoutMs,
      connectionTimeout: settings.connectionTimeoutMs,
      enforceRequestTimeout: true,
      ssl: settings.ssl,
      sasl: settings.sasl,
      clientId: settings.clientId,
    });
  }

  /**
   * Drops the current kafkajs connection for a new one. kafkajs keeps half-read response bytes
   * across its own reconnects, so after a stall or a cut-off answer only a new object is clean.
   */
  private replace(): void {
    const old = this.connection;
    this.connection = this.create();
    this.negotiation = undefined;
    old.disconnect().catch(() => undefined);
  }

  private async negotiate(): Promise<Map<number, VersionRange>> {
    await this.connect();
    let version = ApiVersions.maxVersion;
    for (;;) {
      const response = await this.exchange(ApiVersions, version, version >= 3 ? CLIENT_SOFTWARE : {});
      const ranges = new Map<number, VersionRange>();
      for (const key of response.apiKeys)
        ranges.set(key.apiKey, { min: key.minVersion, max: key.maxVersion });
      if (response.errorCode === UNSUPPORTED_VERSION) {
        // The broker answered in v0 with its own range of ApiVersions: ask again within it.
        const next = pickVersion(
          { min: ApiVersions.minVersion, max: ApiVersions.maxVersion },
          ranges.get(18),
        );
        if (next === undefined || next >= version)
          throw new UnsupportedApiError(this.label, 'ApiVersions', ranges.get(18), {
            min: 0,
            max: ApiVersions.maxVersion,
          });
        version = next;
        continue;
      }
      if (response.errorCode !== 0)
        throw new KafkaResponseError(this.label, 'ApiVersions', response.errorCode);
      const kafkajsVersions: Record<number, { minVersion: number; maxVersion: number }> = {};
      for (const [key, range] of ranges)
        kafkajsVersions[key] = { minVersion: range.min, maxVersion: range.max };
      this.connection.setVersions(kafkajsVersions);
      this.connection.setSupportAuthenticationProtocol(ranges.has(SASL_AUTHENTICATE));
      return ranges;
    }
  }

  private async connect(): Promise<void> {
    if (this.connection.isConnected()) return;
    try {
      await this.connection.connect();
    } catch (error) {
      throw new BrokerUnavailableError(this.label, `cannot connect to ${this.label}: ${messageOf(error)}`, {
        cause: error,
      });
    }
  }

  private async exchange<Req, Res>(api: ApiMessage<Req, Res>, version: number, request: Req): Promise<Res> {
    await this.connect();
    const body = api.encodeRequest(version, request);
    // kafkajs writes request header v1; the flexible header v2 only adds an empty tag section.
    const payload = requestHeaderVersion(api, version) >= 2 ? prefixEmptyTags(body) : body;
    const flexibleResponseHeader = responseHeaderVersion(api, version) >= 1;
    try {
      return await this.connection.send<Res>({
        request: {
          apiKey: api.apiKey,
          apiVersion: version,
          apiName: api.name,
          encode: () =>
            new Encoder().writeBuffer(Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength)),
        },
        response: {
          decode: (frame: Buffer) => this.decode(api, version, frame, flexibleResponseHeader),
          parse: (decoded: Res) => decoded,
        },
        logResponseError: false,
      });
    } catch (error) {
      const translated = this.translate(error, api.name);
      if (translated instanceof BrokerTimeoutError || translated instanceof BrokerUnavailableError)
        this.replace();
      throw translated;
    }
  }

  private decode<Res>(api: ApiMessage<unknown, Res>, version: number, frame: Buffer, tags: boolean): Res {
    const bytes = new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength);
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
      throw new BrokerResponseError(this.label, api.name, version, messageOf(error), { cause: error });
    }
  }

  private translate(error: unknown, api: string): Error {
    if (error instanceof BrokerResponseError || error instanceof BrokerUnavailableError) return error;
    const name = error instanceof Error ? error.name : '';
    if (name === 'KafkaJSRequestTimeoutError')
      return new BrokerTimeoutError(this.label, api, this.settings.requestTimeoutMs);
    if (name === 'KafkaJSSASLAuthenticationError') {
      return new BrokerUnavailableError(
        this.label,
        `SASL authentication with ${this.label} failed: ${messageOf(error)}`,
      );
    }
    if (name.startsWith('KafkaJS')) {
      return new BrokerUnavailableError(this.label, `${api} to ${this.label} failed: ${messageOf(error)}`, {
        cause: error,
      });
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

function prefixEmptyTags(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.byteLength + 1);
  out.set(body, 1);
  return out;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
