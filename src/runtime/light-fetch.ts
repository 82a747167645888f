/**
 * Request, Response and Headers for the Lambda bundle, so that its answers never load Node's own.
 *
 * Node 20 loads its fetch classes (undici) on the first touch of `Request`, `Response` or `Headers`:
 * 20-30 ms, paid by a cold start inside its first answer, for objects the Lambda uses only as
 * containers (the event becomes a Request, the app's answer a Response, read back into the result).
 * These behave as Node's for all an answer needs: Headers whole; a Response or a Request with a
 * string or bytes body, or none. Anything else goes to Node's classes: an init out of the ordinary
 * (a stream body, a Request made from a Request, a signal, a status Node refuses) builds Node's
 * object at once, so its behaviour and its errors are Node's; a light object builds its twin from
 * the same inputs on the first use of what it does not carry itself (`body`, `clone`, `blob`,
 * `formData`, the Request's fetch options) and forwards every call to it from then on, its
 * Headers included.
 *
 * scripts/build.ts injects them into the Lambda bundle only (esbuild's `inject`): the bundle's own
 * free references to the three names become these, Node's globals stay as they are. A Response
 * from `fetch` is Node's; `instanceof` here accepts Node's objects too.
 */

import { FORWARD, isNode, isObject, LightHeaders, node } from './light-headers.js';

const TEXT_PLAIN = 'text/plain;charset=UTF-8';
const UNUSABLE = 'Body is unusable: Body has already been read';
/** The body a light object holds once its own is read or its twin's: it keeps no second copy. */
const LET_GO = new Uint8Array(0);

/** A body these classes carry: a string, bytes (copied, as Node copies them) or none; undefined: other. */
function bodySource(body: unknown): string | Uint8Array | null | undefined {
  if (body === null || body === undefined) return null;
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body.slice(0));
  if (ArrayBuffer.isView(body))
    return new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
  return undefined;
}

/** A string as UTF-8 decoding gives it back: no leading BOM, lone surrogates replaced. */
function asDecoded(text: string): string {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed() && text.charCodeAt(0) !== 0xfeff
    ? text
    : new TextDecoder().decode(new TextEncoder().encode(text));
}

function bytesOf(source: string | Uint8Array): Uint8Array {
  return typeof source === 'string' ? new TextEncoder().encode(source) : source;
}

/** What a light object still holds of its body (the tests check that it lets go). */
export let heldBody: (body: LightRequest | LightResponse) => string | Uint8Array | null;

/** What a light Request and Response share: their body, read once. */
abstract class LightBody {
  #source: string | Uint8Array | null;
  #used = false;

  static {
    heldBody = (body) => body.#source;
  }

  constructor(source: string | Uint8Array | null) {
    this.#source = source;
  }

  /** Node's object built from the same inputs: made once, then every call goes to it. */
  protected abstract twin(): Request | Response;
  protected abstract hasTwin(): boolean;

  /** The body for the twin: bytes, so Node adds no content-type the headers have lost since. */
  protected twinBody(): Uint8Array | null {
    return this.#source === null ? null : bytesOf(this.#source);
  }

  /** A twin of a read body is read too; the twin holds the body from now on. */
  protected settleTwin(twin: Request | Response): void {
    if (this.#used) twin.arrayBuffer().catch(() => undefined);
    if (this.#source !== null) this.#source = LET_GO;
  }

  /** Read once: the bytes go to the reader, as Node lets go of a read body. */
  #take(): string | Uint8Array | null {
    if (this.#source === null) return null;
    if (this.#used) throw new TypeError(UNUSABLE);
    this.#used = true;
    const source = this.#source;
    this.#source = LET_GO;
    return source;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (!this.hasTwin() && this.#source === null) return null;
    return this.twin().body;
  }

  get bodyUsed(): boolean {
    return this.hasTwin() ? this.twin().bodyUsed : this.#used;
  }

  async text(): Promise<string> {
    if (this.hasTwin()) return this.twin().text();
    const source = this.#take();
    if (source === null) return '';
    return typeof source === 'string' ? asDecoded(source) : new TextDecoder().decode(source);
  }

  async json(): Promise<unknown> {
    if (this.hasTwin()) return this.twin().json();
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.hasTwin()) return this.twin().arrayBuffer();
    return (await this.bytes()).buffer as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    if (this.hasTwin()) return (this.twin() as unknown as { bytes(): Promise<Uint8Array> }).bytes();
    const source = this.#take();
    if (source === null) return new Uint8Array(0);
    return typeof source === 'string' ? new TextEncoder().encode(source) : source;
  }

  blob(): Promise<Blob> {
    return this.twin().blob();
  }

  formData(): Promise<FormData> {
    return this.twin().formData() as Promise<FormData>;
  }
}

/** Statuses a Response with a body may not have (Node throws for them). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/** A valid reason phrase (RFC 9110): HTAB, SP, VCHAR, obs-text. */
function isReason(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!(code === 9 || (code >= 32 && code !== 127 && code <= 255))) return false;
  }
  return true;
}

interface ResponseParts {
  status: number;
  statusText: string;
  headers: unknown;
}

/** The init of an ordinary answer; undefined for any other (Node's Response takes it). */
function responseParts(init: unknown): ResponseParts | undefined {
  if (init === undefined || init === null) return { status: 200, statusText: '', headers: undefined };
  if (!isObject(init)) return undefined;
  const { status = 200, statusText = '', headers } = init as Partial<ResponseParts>;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599)
    return undefined;
  if (typeof statusText !== 'string' || !isReason(statusText)) return undefined;
  return { status, statusText, headers };
}

export class LightResponse extends LightBody {
  #status = 200;
  #statusText = '';
  #headers!: LightHeaders;
  #twin: Response | undefined;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isObject(value) && (#status in value || isNode(value, 'Response'));
  }

  static json(data: unknown, init?: ResponseInit): Response {
    return node.Response().json(data, init);
  }

  static error(): Response {
    return node.Response().error();
  }

  static redirect(url: string | URL, status?: number): Response {
    return node.Response().redirect(url, status as never);
  }

  constructor(body?: unknown, init?: unknown) {
    const source = bodySource(body);
    const parts = responseParts(init);
    const other =
      source === undefined || parts === undefined || (source !== null && NULL_BODY_STATUS.has(parts.status));
    super(other ? null : (source as string | Uint8Array | null));
    // biome-ignore lint/correctness/noConstructorReturn: Node's object for what these do not do, errors included
    if (other) return new (node.Response())(body as never, init as never) as unknown as LightResponse;
    const { status, statusText, headers } = parts as ResponseParts;
    this.#status = status;
    this.#statusText = statusText;
    this.#headers = new LightHeaders(headers);
    if (typeof source === 'string' && !this.#headers.has('content-type'))
      this.#headers.set('content-type', TEXT_PLAIN);
  }

  protected hasTwin(): boolean {
    return this.#twin !== undefined;
  }

  protected twin(): Response {
    if (!this.#twin) {
      const twin = new (node.Response())(this.twinBody(), {
        status: this.#status,
        statusText: this.#statusText,
        headers: this.#headers as unknown as Headers,
      });
      this.settleTwin(twin);
      this.#twin = twin;
      if (FORWARD in this.#headers) this.#headers[FORWARD](twin.headers);
    }
    return this.#twin;
  }

  get status(): number {
    return this.#status;
  }
  get statusText(): string {
    return this.#statusText;
  }
  get ok(): boolean {
    return this.#status >= 200 && this.#status <= 299;
  }
  get headers(): LightHeaders {
    return this.#headers;
  }
  get type(): 'default' {
    return 'default';
  }
  get url(): string {
    return '';
  }
  get redirected(): boolean {
    return false;
  }
  clone(): Response {
    return this.twin().clone();
  }
  get [Symbol.toStringTag](): string {
    return 'Response';
  }
}

/** Methods Node writes in capitals whatever their case; other valid ones stay as given. */
const NORMALIZED_METHODS = /^(delete|get|head|options|post|put)$/i;
const ORDINARY_METHODS = /^(DELETE|GET|HEAD|OPTIONS|POST|PUT|PATCH)$/;
const REQUEST_INIT_KEYS = new Set(['method', 'headers', 'body']);

interface RequestParts {
  url: string;
  method: string;
  headers: unknown;
  source: string | Uint8Array | null;
}

/** An ordinary request: a URL, a method, headers, a string or bytes body; undefined for any other. */
function requestParts(input: unknown, init: unknown): RequestParts | undefined {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  if (href === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') return undefined;
  if (init !== undefined && init !== null) {
    if (!isObject(init)) return undefined;
    for (const key in init) if (!REQUEST_INIT_KEYS.has(key)) return undefined;
  }
  const given = init as { method?: unknown; headers?: unknown; body?: unknown } | null | undefined;
  // Only a missing method is GET: Node makes a string of any other (null is the method "null").
  let method = given?.method === undefined ? 'GET' : given.method;
  if (typeof method !== 'string') return undefined;
  if (!ORDINARY_METHODS.test(method)) {
    if (!NORMALIZED_METHODS.test(method)) return undefined;
    method = method.toUpperCase();
  }
  const source = bodySource(given?.body);
  if (source === undefined || (source !== null && (method === 'GET' || method === 'HEAD'))) return undefined;
  return { url: url.href, method: method as string, headers: given?.headers, source };
}

export class LightRequest extends LightBody {
  #url = '';
  #method = 'GET';
  #headers!: LightHeaders;
  #signal: AbortSignal | undefined;
  #twin: Request | undefined;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isObject(value) && (#url in value || isNode(value, 'Request'));
  }

  constructor(input: unknown, init?: unknown) {
    const parts = requestParts(input, init);
    super(parts ? parts.source : null);
    if (!parts) {
      // A light Request as the input: Node's takes its twin.
      const from = isObject(input) && #url in input ? (input as LightRequest).twin() : input;
      // biome-ignore lint/correctness/noConstructorReturn: Node's object for what these do not do, errors included
      return new (node.Request())(from as never, init as never) as unknown as LightRequest;
    }
    this.#url = parts.url;
    this.#method = parts.method;
    this.#headers = new LightHeaders(parts.headers);
    if (typeof parts.source === 'string' && !this.#headers.has('content-type'))
      this.#headers.set('content-type', TEXT_PLAIN);
  }

  protected hasTwin(): boolean {
    return this.#twin !== undefined;
  }

  protected twin(): Request {
    if (!this.#twin) {
      const twin = new (node.Request())(this.#url, {
        method: this.#method,
        headers: this.#headers as unknown as Headers,
        body: this.twinBody(),
        // A signal handed out already stays the one that tells: the twin's follows it.
        ...(this.#signal && { signal: this.#signal }),
      });
      this.settleTwin(twin);
      this.#twin = twin;
      if (FORWARD in this.#headers) this.#headers[FORWARD](twin.headers);
    }
    return this.#twin;
  }

  get url(): string {
    return this.#url;
  }
  get method(): string {
    return this.#method;
  }
  get headers(): LightHeaders {
    return this.#headers;
  }
  /** Never aborted, as Node's for a Request made from an event. */
  get signal(): AbortSignal {
    if (!this.#signal && this.#twin) return this.#twin.signal;
    this.#signal ??= new AbortController().signal;
    return this.#signal;
  }
  clone(): Request {
    return this.twin().clone();
  }
  get [Symbol.toStringTag](): string {
    return 'Request';
  }
}

// The fetch options of a Request: constant for the ones made here, read from the twin all the same.
for (const name of [
  'cache',
  'credentials',
  'destination',
  'duplex',
  'integrity',
  'keepalive',
  'mode',
  'redirect',
  'referrer',
  'referrerPolicy',
] as const) {
  Object.defineProperty(LightRequest.prototype, name, {
    get(this: LightRequest) {
      return (this as unknown as { twin(): Request }).twin()[name as keyof Request];
    },
    configurable: true,
  });
}

export { LightHeaders as Headers, LightRequest as Request, LightResponse as Response };
