/**
 * One broker connection: a Link (link.ts) carries the bytes (socket factory, TLS, SASL, correlation
 * ids, request timeouts) and this project's codec writes and reads them. The version of every RPC
 * is negotiated with this broker's ApiVersions answer, so one code path serves Kafka 3.x and 4.x.
 *
 * Sockets come from the runtime's factory through `openSocket`, which takes a slot of the cluster's
 * pool (the connection cap) for each and gives it back when the socket closes. A send that fails
 * because a socket idle for a while turned out dead (a Lambda frozen between invocations, a NAT
 * that forgot the flow, a broker that reaped the idle connection) is sent once more on a new one.
 *
 * A SASL session the broker limits (OAUTHBEARER tokens, `connections.max.reauth.ms`) is never
 * renewed on its socket: re-authenticating while requests are pipelined on it makes the broker
 * answer them ILLEGAL_SASL_STATE. Near the session's end the Link is retired instead: new calls go
 * to a new Link (a new socket, a fresh token), and the old one closes once its last answer came.
 */

import type { ConnectionOptions as TlsOptions } from 'node:tls';
import { bounded, type CallOptions } from '../deadline.js';
import { BrokerTimeoutError, BrokerUnavailableError, UnsupportedApiError } from '../errors.js';
import type { ApiMessage } from '../protocol/api.js';
import { type BrokerAddress, formatAddress } from './address.js';
import { closeSocket } from './close-socket.js';
import type { ClusterPin } from './cluster-pin.js';
import { decodeAnswer, messageOf, pickVersion, requestBody } from './framing.js';
import {
  ConnectionDroppedError,
  type Link,
  type SaslCredentials,
  type SocketFactory,
  type SocketRequest,
  type Transport,
  type TransportSocket,
  type VersionRange,
} from './link.js';
import { negotiateVersions } from './negotiation.js';
import { type ConnectionPool, type Slot, tick } from './pool.js';

export { type BrokerAddress, type CallOptions, ConnectionDroppedError, formatAddress, type VersionRange };

type Versions = Map<number, VersionRange>;

export interface ConnectionSettings {
  clientId: string;
  ssl: TlsOptions | null;
  sasl: SaslCredentials | null;
  socketFactory: SocketFactory;
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
  /** What opens Links (the kafkajs one, see kafkajs/). */
  transport: Transport;
  /** The cluster's socket slots (cap and counts). */
  pool: ConnectionPool;
  /**
   * A send that fails with a dropped socket is retried once on a new socket when the old one had
   * carried nothing for at least this long (a socket that just worked and fails is a broker fault).
   */
  idleRetryMs: number;
  /** The cluster every connection must reach; undefined: not checked (tests of one connection). */
  pin?: ClusterPin;
}

/** A socket to a broker, as the runtime's socket factory made it. */
export type KafkaSocket = TransportSocket;

/**
 * How long before its SASL session ends a Link takes no new calls: a tenth of the session, at least
 * 10 s, but never more than half of it (a short session still serves a while).
 */
export function retireMargin(lifetimeMs: number): number {
  return Math.min(Math.max(10_000, lifetimeMs / 10), lifetimeMs / 2);
}

export class BrokerConnection {
  readonly label: string;
  private link: Link;
  /** Bumped with every new Link: sockets of older ones are retired. */
  private generation = 0;
  /** The current Link's ApiVersions exchange, and once it came, the broker's answer. */
  private negotiation: { promise: Promise<Versions>; link: Link; versions?: Versions } | undefined;
  /** Exchanges on the wire per Link generation: a retired Link closes when its count is 0. */
  private readonly inFlight = new Map<number, number>();
  /** Links retired before their session's end, waiting for their last answers. */
  private readonly retired = new Map<number, Link>();
  private connecting: Promise<void> | undefined;
  /** The slot `connect()` took for the socket the Link is about to ask the factory for. */
  private pendingSlot: Slot | undefined;
  /** Sockets not closed yet, of this and of replaced Links. */
  private readonly sockets = new Set<KafkaSocket>();
  /** The socket of the current Link, once it asked for one. */
  private current: KafkaSocket | undefined;
  /** Calls in progress (a socket of the current generation is not idle while this is above 0). */
  private busy = 0;
  private lastUsed = 0;
  /** When the current socket last carried an answer or was opened (ms). */
  private lastActivityAt = 0;

  constructor(
    readonly address: BrokerAddress,
    private readonly settings: ConnectionSettings,
  ) {
    this.label = formatAddress(address);
    this.link = this.create();
  }

  /**
   * The broker's version range per API key, asked once per connection. Concurrent callers share
   * one negotiation; a connection that dropped since is replaced and asked again.
   */
  apiVersions(options: CallOptions): Promise<Map<number, VersionRange>> {
    // Negotiated on the live socket already (every call after the first): the answer is at hand,
    // with nothing to bound by the deadline or to count as a call in progress.
    const known = this.negotiation;
    if (known?.versions && known.link === this.link && this.live() && !this.sessionEnding())
      return known.promise;
    return bounded(this.label, 'ApiVersions', options, () => this.versionsUnbounded());
  }

  /** `apiVersions` without the deadline: the call a subclass observes. */
  protected versionsUnbounded(): Promise<Map<number, VersionRange>> {
    return this.use(() => this.negotiated());
  }

  private negotiated(): Promise<Map<number, VersionRange>> {
    if (this.negotiation?.versions && this.live() && this.sessionEnding()) this.retire(this.link);
    const current = this.negotiation;
    if (current && (!current.versions || this.live())) return current.promise;
    if (current) this.replace(this.link);
    const entry: NonNullable<typeof this.negotiation> = { promise: this.negotiate(), link: this.link };
    this.negotiation = entry;
    entry.promise.then(
      (versions) => {
        entry.versions = versions;
      },
      () => {
        // A failed negotiation is not kept: the next call starts afresh.
        if (this.negotiation === entry) this.negotiation = undefined;
      },
    );
    return entry.promise;
  }

  /** The version `send` would use for `api`, or undefined when there is none in common. */
  async versionFor(
    api: ApiMessage<unknown, unknown>,
    bounds: Partial<VersionRange> | undefined,
    options: CallOptions,
  ): Promise<number | undefined> {
    const versions = await this.apiVersions(options);
    return pickVersion({ min: api.minVersion, max: api.maxVersion }, versions.get(api.apiKey), bounds);
  }

  /** Known at once (no call, no turn): the versions negotiated on the live socket lack `api`. */
  lacks(api: ApiMessage<unknown, unknown>): boolean {
    const known = this.negotiation;
    if (!known?.versions || known.link !== this.link || !this.live()) return false;
    return (
      pickVersion({ min: api.minVersion, max: api.maxVersion }, known.versions.get(api.apiKey)) === undefined
    );
  }

  /**
   * Sends `api` at the highest common version. `request` may depend on the version, for RPCs whose
   * shape changed (FindCoordinator v4 batches its keys). Bounded by `options.deadline`.
   */
  send<Req, Res>(
    api: ApiMessage<Req, Res>,
    request: Req | ((version: number) => Req),
    bounds: Partial<VersionRange> | undefined,
    options: CallOptions,
  ): Promise<{ version: number; response: Res }> {
    return bounded(this.label, api.name, options, () => this.sendUnbounded(api, request, bounds));
  }

  /** `send` without the deadline: the call a subclass observes. */
  protected async sendUnbounded<Req, Res>(
    api: ApiMessage<Req, Res>,
    request: Req | ((version: number) => Req),
    bounds?: Partial<VersionRange>,
  ): Promise<{ version: number; response: Res }> {
    // Judged before this call counts as activity: calls that start together on a socket that sat
    // idle all get their one retry, and share the new socket's negotiation.
    const idleFor = this.idleFor();
    return this.use(async () => {
      try {
        return await this.sendOnce(api, request, bounds);
      } catch (error) {
        if (!(error instanceof ConnectionDroppedError) || idleFor < this.settings.idleRetryMs) throw error;
        return await this.sendOnce(api, request, bounds);
      }
    });
  }

  async close(): Promise<void> {
    this.negotiation = undefined;
    const retired = [...this.retired.values()];
    this.retired.clear();
    await Promise.all([this.link, ...retired].map((link) => link.close()));
    await Promise.all([...this.sockets].map(closeSocket));
  }

  isConnected(): boolean {
    return this.link.isConnected();
  }

  /** Sockets open now (diagnostics and tests: e.g. to destroy them as a frozen Lambda would find them). */
  openSockets(): KafkaSocket[] {
    return [...this.sockets];
  }

  private async sendOnce<Req, Res>(
    api: ApiMessage<Req, Res>,
    request: Req | ((version: number) => Req),
    bounds?: Partial<VersionRange>,
  ): Promise<{ version: number; response: Res }> {
    let versions = await this.negotiated();
    // The Link may have been retired or replaced while this call waited: use one that is ready.
    while (!(this.negotiation?.versions && this.negotiation.link === this.link))
      versions = await this.negotiated();
    const link = this.link;
    const own = { min: api.minVersion, max: api.maxVersion };
    const version = pickVersion(own, versions.get(api.apiKey), bounds);
    if (version === undefined) {
      const range = versions.get(api.apiKey);
      throw new UnsupportedApiError(this.label, api.name, range, own);
    }
    const body = typeof request === 'function' ? (request as (v: number) => Req)(version) : request;
    const response = await this.exchange(api, version, body, link);
    return { version, response };
  }

  /** ms since the current socket last carried anything, or -1 when there is no usable socket. */
  private idleFor(): number {
    if (!this.negotiation?.versions || !this.live()) return -1;
    return Date.now() - this.lastActivityAt;
  }

  /**
   * Connected as far as the Link knows, and the socket not destroyed: a socket destroyed locally
   * says 'close' only on a later turn of the event loop, and the Link would write into it meanwhile.
   */
  private live(): boolean {
    return this.link.isConnected() && this.current?.destroyed !== true;
  }

  /** The current Link's SASL session is within its retirement margin of its end. */
  private sessionEnding(): boolean {
    const session = this.link.session();
    if (!session) return false;
    return Date.now() >= session.endsAt - retireMargin(session.endsAt - session.startedAt);
  }

  /**
   * Retires `old`, if it is still the current Link: new calls go to a new Link, and `old` closes
   * once the exchanges already on it are answered (its session still runs for them).
   */
  private retire(old: Link): void {
    if (old !== this.link) return;
    const generation = this.generation;
    this.current = undefined;
    this.link = this.create();
    this.negotiation = undefined;
    if ((this.inFlight.get(generation) ?? 0) === 0) void old.close();
    else this.retired.set(generation, old);
  }

  /** Counts a call as in progress, so its socket is not closed to make room under the cap. */
  private async use<T>(call: () => Promise<T>): Promise<T> {
    this.busy += 1;
    try {
      return await call();
    } finally {
      this.busy -= 1;
      this.lastUsed = tick();
      if (this.busy === 0) this.settings.pool.idle();
    }
  }

  private create(): Link {
    const { settings, address } = this;
    this.generation += 1;
    const generation = this.generation;
    return settings.transport.open({
      host: address.host,
      port: address.port,
      label: this.label,
      socketFactory: (args) => this.openSocket(args, generation),
      requestTimeoutMs: settings.requestTimeoutMs,
      connectionTimeoutMs: settings.connectionTimeoutMs,
      ssl: settings.ssl,
      sasl: settings.sasl,
      clientId: settings.clientId,
    });
  }

  /** The Link's socket factory: the runtime's socket, bound to the slot `connect()` took for it. */
  private openSocket(args: SocketRequest, generation: number): KafkaSocket {
    const slot = this.pendingSlot;
    this.pendingSlot = undefined;
    const socket = this.settings.socketFactory(args);
    this.sockets.add(socket);
    if (generation === this.generation) this.current = socket;
    socket.once('close', () => {
      this.sockets.delete(socket);
      slot?.release();
    });
    if (slot) {
      slot.holder = {
        idle: () => !this.inFlight.get(generation) && (generation !== this.generation || this.busy === 0),
        lastUsed: () => (generation !== this.generation ? 0 : this.lastUsed),
        evict: () => {
          // A new Link at once: no call may write into the socket being closed.
          if (generation === this.generation) this.replace(this.link);
          socket.destroy();
        },
      };
    }
    return socket;
  }

  /**
   * Drops `old`, if it is still the current Link, for a new one. A Link may keep half-read response
   * bytes across reconnects (kafkajs does), so after a stall or a cut-off answer only a new one is
   * clean. Calls that failed together on one socket replace it once, not once each.
   */
  private replace(old: Link): void {
    if (old !== this.link) return;
    this.current = undefined;
    this.link = this.create();
    this.negotiation = undefined;
    void old.close();
  }

  private async negotiate(): Promise<Map<number, VersionRange>> {
    await this.connect();
    return negotiateVersions({
      label: this.label,
      pin: this.settings.pin,
      exchange: (api, version, request) => this.exchange(api, version, request),
      authenticate: (versions) => this.authenticate(versions),
      drop: () => this.replace(this.link),
    });
  }

  private async authenticate(versions: Map<number, VersionRange>): Promise<void> {
    const link = this.link;
    try {
      await link.authenticate(versions);
    } catch (error) {
      this.replace(link);
      throw error;
    }
  }

  private connect(): Promise<void> {
    if (this.link.isConnected()) return Promise.resolve();
    // One socket per Link: concurrent callers wait for the same one.
    this.connecting ??= this.openConnection().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async openConnection(): Promise<void> {
    const slot = await this.settings.pool.acquire();
    const link = this.link;
    if (link.isConnected()) {
      slot.release();
      return;
    }
    this.pendingSlot = slot;
    const before = new Set(this.sockets);
    try {
      await link.connect();
      this.lastActivityAt = Date.now();
    } catch (error) {
      if (this.pendingSlot === slot) {
        this.pendingSlot = undefined;
        slot.release();
      }
      // A socket that did not connect (refused, timed out) is closed now, not when the OS gives up.
      for (const socket of this.sockets) if (!before.has(socket)) socket.destroy();
      throw new BrokerUnavailableError(this.label, `cannot connect to ${this.label}: ${messageOf(error)}`, {
        cause: error,
      });
    }
  }

  private async exchange<Req, Res>(
    api: ApiMessage<Req, Res>,
    version: number,
    request: Req,
    negotiated?: Link,
  ): Promise<Res> {
    if (!negotiated) await this.connect();
    const link = negotiated ?? this.link;
    const generation = link === this.link ? this.generation : undefined;
    const payload = requestBody(api, version, request);
    let bytes: Uint8Array;
    if (generation !== undefined) this.inFlight.set(generation, (this.inFlight.get(generation) ?? 0) + 1);
    try {
      bytes = await link.send({ apiKey: api.apiKey, apiVersion: version, apiName: api.name, body: payload });
    } catch (error) {
      if (error instanceof BrokerTimeoutError || error instanceof BrokerUnavailableError) this.replace(link);
      throw error;
    } finally {
      if (link === this.link) this.lastActivityAt = Date.now();
      if (generation !== undefined) this.settle(generation);
    }
    return decodeAnswer(this.label, api, version, bytes);
  }

  /** One exchange of `generation` answered: a retired Link with none left closes. */
  private settle(generation: number): void {
    const left = (this.inFlight.get(generation) ?? 1) - 1;
    if (left > 0) {
      this.inFlight.set(generation, left);
      return;
    }
    this.inFlight.delete(generation);
    const retired = this.retired.get(generation);
    if (!retired) return;
    this.retired.delete(generation);
    void retired.close();
  }
}
