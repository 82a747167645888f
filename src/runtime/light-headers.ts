/**
 * Headers for the Lambda bundle, as Node's behave: names checked and lowercased, values trimmed and
 * checked (with Node's TypeErrors, word for word), `append` joining with ", " ("; " for cookie),
 * every set-cookie kept apart (`getSetCookie`), iteration sorted by name. Why the Lambda has its
 * own: light-fetch.ts.
 */

const COOKIE_JOIN = '; ';
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
/** Headers of a light object whose twin (Node's) holds them now. */
export const FORWARD = Symbol('forward');

/** Node's classes, looked up only when one is needed (the lookup is what loads them). */
export const node = {
  Headers: () => globalThis.Headers,
  Request: () => globalThis.Request,
  Response: () => globalThis.Response,
};

export function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/**
 * Whether `value` is an object of Node's class `name`. Only a value that says it is one (its
 * toStringTag) is checked against the class: validated data, a plain object, asked whether it is a
 * Response (Hono's validator asks), must not load Node's classes.
 */
export function isNode(value: object, name: keyof typeof node): boolean {
  return (
    (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === name &&
    value instanceof node[name]()
  );
}

/** WebIDL's ByteString, with Node's message. */
function byteString(value: unknown): string {
  const text = String(value);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 255)
      throw new TypeError(
        `Cannot convert argument to a ByteString because the character at index ${i} has a value of ${code} which is greater than 255.`,
      );
  }
  return text;
}

/** A name, converted (ByteString) already: checked, lowercased. */
function headerName(operation: string, name: string): string {
  if (!TOKEN.test(name)) throw new TypeError(`Headers.${operation}: "${name}" is an invalid header name.`);
  return name.toLowerCase();
}

/** A value, converted already: trimmed of HTTP whitespace, then checked. */
function headerValue(operation: string, value: string): string {
  const normal = value.replace(EDGE_WHITESPACE, '');
  if (normal.includes('\0') || normal.includes('\r') || normal.includes('\n'))
    throw new TypeError(`Headers.${operation}: "${normal}" is an invalid header value.`);
  return normal;
}

/** WebIDL: Node counts the arguments before it converts any (a missing one is not "undefined"). */
function arity(operation: string, found: number, required: number): void {
  if (found < required)
    throw new TypeError(
      `Headers.${operation}: ${required} argument${required === 1 ? '' : 's'} required, but${found ? ' only' : ''} ${found} found.`,
    );
}

/** Node converts both arguments before it checks either. */
function header(operation: string, name: unknown, value: unknown): [string, string] {
  const rawName = byteString(name);
  const rawValue = byteString(value);
  return [headerName(operation, rawName), headerValue(operation, rawValue)];
}

export class LightHeaders {
  /** Lowercase name → value; set-cookie's values also apart, in `#cookies`. */
  #map = new Map<string, string>();
  #cookies: string[] = [];
  /** Node's Headers of the twin this object forwards to, once there is one. */
  #target: Headers | undefined;

  static [Symbol.hasInstance](value: unknown): boolean {
    return isObject(value) && (#map in value || isNode(value, 'Headers'));
  }

  constructor(init?: unknown) {
    if (init === undefined) return;
    // biome-ignore lint/correctness/noConstructorReturn: Node's object for what these do not do, errors included
    if (!isObject(init)) return new (node.Headers())(init as never) as unknown as LightHeaders;
    if (Symbol.iterator in init) {
      const pairs = [...(init as Iterable<unknown>)];
      if (!pairs.every((pair) => Array.isArray(pair) && pair.length === 2))
        // biome-ignore lint/correctness/noConstructorReturn: as above
        return new (node.Headers())(pairs as never) as unknown as LightHeaders;
      for (const [name, value] of pairs as [unknown, unknown][]) this.append(name, value);
      return;
    }
    if (Object.getOwnPropertySymbols(init).length > 0)
      // biome-ignore lint/correctness/noConstructorReturn: as above
      return new (node.Headers())(init as never) as unknown as LightHeaders;
    const record = init as Record<string, unknown>;
    for (const name of Object.keys(record)) this.append(name, record[name]);
  }

  append(...args: [name: unknown, value: unknown]): void {
    arity('append', args.length, 2);
    const [name, value] = args;
    if (this.#target) {
      this.#target.append(name as string, value as string);
      return;
    }
    const [key, normal] = header('append', name, value);
    const before = this.#map.get(key);
    this.#map.set(
      key,
      before === undefined ? normal : `${before}${key === 'cookie' ? COOKIE_JOIN : ', '}${normal}`,
    );
    if (key === 'set-cookie') this.#cookies.push(normal);
  }

  set(...args: [name: unknown, value: unknown]): void {
    arity('set', args.length, 2);
    const [name, value] = args;
    if (this.#target) {
      this.#target.set(name as string, value as string);
      return;
    }
    const [key, normal] = header('set', name, value);
    this.#map.set(key, normal);
    if (key === 'set-cookie') this.#cookies = [normal];
  }

  delete(...args: [name: unknown]): void {
    arity('delete', args.length, 1);
    const [name] = args;
    if (this.#target) {
      this.#target.delete(name as string);
      return;
    }
    const key = headerName('delete', byteString(name));
    this.#map.delete(key);
    if (key === 'set-cookie') this.#cookies = [];
  }

  get(...args: [name: unknown]): string | null {
    arity('get', args.length, 1);
    const [name] = args;
    if (this.#target) return this.#target.get(name as string);
    return this.#map.get(headerName('get', byteString(name))) ?? null;
  }

  has(...args: [name: unknown]): boolean {
    arity('has', args.length, 1);
    const [name] = args;
    if (this.#target) return this.#target.has(name as string);
    return this.#map.has(headerName('has', byteString(name)));
  }

  getSetCookie(): string[] {
    if (this.#target) return this.#target.getSetCookie();
    return [...this.#cookies];
  }

  /** Sorted by name, each set-cookie apart: Node's order. */
  #pairs(): [string, string][] {
    if (this.#target) return [...this.#target];
    const pairs: [string, string][] = [];
    for (const name of [...this.#map.keys()].sort()) {
      if (name === 'set-cookie') for (const cookie of this.#cookies) pairs.push([name, cookie]);
      else pairs.push([name, this.#map.get(name) as string]);
    }
    return pairs;
  }

  entries(): IterableIterator<[string, string]> {
    return this.#pairs()[Symbol.iterator]();
  }

  keys(): IterableIterator<string> {
    return this.#pairs()
      .map(([name]) => name)
      [Symbol.iterator]();
  }

  values(): IterableIterator<string> {
    return this.#pairs()
      .map(([, value]) => value)
      [Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  forEach(
    ...args: [callback: (value: string, name: string, headers: LightHeaders) => void, thisArg?: unknown]
  ): void {
    arity('forEach', args.length, 1);
    const [callback, thisArg] = args;
    if (typeof callback !== 'function')
      throw new TypeError('Headers.forEach: Argument 1 could not be converted to: Function.');
    for (const [name, value] of this.#pairs()) callback.call(thisArg, value, name, this);
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }

  /** From now on, the twin's headers are the truth: its object answers every call. */
  [FORWARD](target: Headers): void {
    this.#target = target;
  }
}
