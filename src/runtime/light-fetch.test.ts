/**
 * The Lambda bundle's light Request, Response and Headers against Node's own, call for call: the
 * same results, the same errors (class and message), for random sequences of header edits and for
 * every kind of body and init; what they hand over (a stream body, clone, blob, formData) still
 * works. hono/aws-lambda on them: light-fetch-lambda.test.ts.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heldBody, LightRequest, LightResponse } from './light-fetch.js';
import { LightHeaders } from './light-headers.js';

/** What a call gave: its value, or its error's class and message. */
function outcome(call: () => unknown): unknown {
  try {
    return { value: call() };
  } catch (error) {
    return { error: `${(error as Error).constructor.name}: ${(error as Error).message}` };
  }
}

async function settled(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return { value: await call() };
  } catch (error) {
    return { error: `${(error as Error).constructor.name}: ${(error as Error).message}` };
  }
}

function seen(headers: Headers | LightHeaders): unknown {
  const each: string[][] = [];
  headers.forEach((value, name) => {
    each.push([name, value]);
  });
  return { entries: [...headers], keys: [...headers.keys()], values: [...headers.values()], each };
}

const NAMES = [
  'a',
  'A',
  'set-cookie',
  'Set-Cookie',
  'cookie',
  'Cookie',
  'x-y',
  'content-type',
  'a b',
  '',
  'ä',
  'ā',
  'b:',
];
const VALUES = [' x ', 'y', 'a\nb', '\t', 'é', 'ā', 'a=1; Path=/', '', 'v\r', '\0', ' \t z\t'];

type Op = [op: 'append' | 'set' | 'delete' | 'get' | 'has' | 'getSetCookie', name: string, value: string];

const op = fc.tuple(
  fc.constantFrom('append', 'set', 'delete', 'get', 'has', 'getSetCookie') as fc.Arbitrary<Op[0]>,
  fc.constantFrom(...NAMES),
  fc.constantFrom(...VALUES),
);

function apply(headers: Headers | LightHeaders, [name, key, value]: Op): unknown {
  const h = headers as unknown as Record<string, (...args: unknown[]) => unknown>;
  return outcome(() => (h[name] as (...args: unknown[]) => unknown).call(headers, key, value));
}

describe('Headers', () => {
  it('random edits give what Node gives, call for call, and the same iteration', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const light = new LightHeaders();
        const node = new Headers();
        for (const o of ops) expect(apply(light, o)).toEqual(apply(node, o));
        expect(seen(light)).toEqual(seen(node));
        expect(light.getSetCookie()).toEqual(node.getSetCookie());
      }),
      { numRuns: 400 },
    );
  });

  it('every init Node takes, and the same errors for the ones it refuses', () => {
    const inits: unknown[] = [
      undefined,
      { A: '1', b: ' 2 ', 'Set-Cookie': 'c=3' },
      [
        ['set-cookie', 'a'],
        ['Set-Cookie', 'b'],
        ['x', '1'],
        ['X', '2'],
      ],
      new Map([['k', 'v']]),
      new Headers({ z: '1', 'set-cookie': 'q' }),
      new LightHeaders({ z: '1', 'set-cookie': 'q' }),
      { a: 1, b: null, c: undefined },
      null,
      5,
      'ab',
      [['a']],
      [['a', 'b', 'c']],
      { 'a b': 'x' },
      [['a', 'x\ny']],
      { a: 'ā' },
    ];
    for (const init of inits) {
      const light = outcome(() => seen(new LightHeaders(init)));
      expect(light, String(init)).toEqual(outcome(() => seen(new Headers(init as never))));
    }
  });

  it('too few arguments: the same TypeError as Node, before and after the twin holds the headers', () => {
    const calls: [string, unknown[]][] = [
      ['append', []],
      ['append', ['a']],
      ['set', ['a']],
      ['set', []],
      ['get', []],
      ['has', []],
      ['delete', []],
      ['forEach', []],
      ['append', ['a', undefined]],
      ['get', [undefined]],
    ];
    const twinned = new LightResponse('x');
    void twinned.body;
    for (const headers of [new LightHeaders(), twinned.headers]) {
      const node = new Headers();
      for (const [name, args] of calls) {
        const call = (on: object) => () =>
          (on as Record<string, (...a: unknown[]) => unknown>)[name]?.(...args);
        expect(outcome(call(headers)), `${name}(${args.length})`).toEqual(outcome(call(node)));
      }
    }
  });

  it("is Headers to instanceof and to Object.prototype.toString, and Node's are too", () => {
    expect(new LightHeaders()).toBeInstanceOf(LightHeaders);
    expect(new Headers()).toBeInstanceOf(LightHeaders);
    expect({} instanceof LightHeaders).toBe(false);
    expect(Object.prototype.toString.call(new LightHeaders())).toBe('[object Headers]');
  });
});

const BODIES: [string, () => unknown][] = [
  ['none', () => undefined],
  ['null', () => null],
  ['a string', () => 'héllo'],
  ['a string with a BOM', () => '\uFEFFbom'],
  ['a lone surrogate', () => 'a\uD800b'],
  ['JSON', () => '{"a":[1,2]}'],
  ['bytes', () => new Uint8Array([104, 105, 0xff])],
  ['a view into a larger buffer', () => new Uint8Array([1, 2, 3, 4]).subarray(1, 3)],
  ['an ArrayBuffer', () => new Uint8Array([0x7b, 0x7d]).buffer],
  ['URLSearchParams', () => new URLSearchParams('a=1&b=2')],
  ['a Blob', () => new Blob(['blob'], { type: 'x/y' })],
  ['a stream', () => new Blob(['streamed']).stream()],
];

const RESPONSE_INITS: unknown[] = [
  undefined,
  null,
  { status: 201, statusText: 'Made' },
  { status: 404, headers: { 'content-type': 'application/problem+json', 'x-a': '1' } },
  { status: 204 },
  { status: 304 },
  { status: 99 },
  { status: 600 },
  { status: '201' },
  { status: 200.5 },
  { statusText: 'a\nb' },
  {
    headers: [
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
      ['vary', 'accept'],
    ],
  },
  { headers: { 'a b': 'x' } },
  7,
];

async function looked(make: () => Response | LightResponse): Promise<unknown> {
  const made = outcome(make);
  if (!('value' in (made as object))) return made;
  const res = (made as { value: Response }).value;
  const head = {
    status: res.status,
    statusText: res.statusText,
    ok: res.ok,
    type: res.type,
    url: res.url,
    redirected: res.redirected,
    bodyUsed: res.bodyUsed,
    headers: seen(res.headers),
    tag: Object.prototype.toString.call(res),
  };
  const first = await settled(() => res.text());
  const second = await settled(() => res.arrayBuffer().then((b) => [...new Uint8Array(b)]));
  return { head, first, second, bodyUsed: res.bodyUsed, bodyIsNull: res.body === null };
}

describe('Response', () => {
  it('every body and init: the same status, headers, body and errors as Node', async () => {
    for (const [name, body] of BODIES) {
      for (const init of RESPONSE_INITS) {
        const light = await looked(() => new LightResponse(body(), init));
        const node = await looked(() => new Response(body() as never, init as never));
        expect(light, `${name} ${JSON.stringify(init)}`).toEqual(node);
      }
    }
  });

  it('json, bytes and arrayBuffer read as Node reads them', async () => {
    for (const text of ['{"a":1}', '{"a":', '\uFEFF[1]']) {
      for (const read of ['json', 'bytes', 'arrayBuffer'] as const) {
        const light = await settled(async () => {
          const v = await new LightResponse(text)[read]();
          return v instanceof ArrayBuffer || v instanceof Uint8Array ? [...new Uint8Array(v)] : v;
        });
        const node = await settled(async () => {
          const v = await (new Response(text) as unknown as LightResponse)[read]();
          return v instanceof ArrayBuffer || v instanceof Uint8Array ? [...new Uint8Array(v)] : v;
        });
        expect(light, `${read} ${text}`).toEqual(node);
      }
    }
  });

  it("hands over to Node's: a stream body, clone, blob; its headers stay one object, edits reach the twin", async () => {
    const res = new LightResponse('abc', { status: 202, headers: { 'x-a': '1' } });
    const headers = res.headers;
    expect(res.body).toBeInstanceOf(ReadableStream);
    headers.set('x-b', '2');
    expect(res.headers).toBe(headers);
    const copy = res.clone();
    expect([...copy.headers]).toEqual([
      ['content-type', 'text/plain;charset=UTF-8'],
      ['x-a', '1'],
      ['x-b', '2'],
    ]);
    expect(await copy.text()).toBe('abc');
    expect(await (await new LightResponse('blob').blob()).text()).toBe('blob');
    // Hono's way of editing an answer after the fact: a new Response of the old one's body and init.
    const again = new LightResponse(res.body, res);
    expect([again.status, await again.text(), res.bodyUsed]).toEqual([202, 'abc', true]);
    // A body read before the hand-over stays read.
    const read = new LightResponse('x');
    await read.text();
    expect([read.body?.locked, read.bodyUsed]).toEqual([true, true]);
  });

  it("is Response to instanceof, Node's are too; the statics are Node's", () => {
    expect(new LightResponse()).toBeInstanceOf(LightResponse);
    expect(new Response()).toBeInstanceOf(LightResponse);
    expect((undefined as unknown as object) instanceof LightResponse).toBe(false);
    expect({ status: 200 } instanceof LightResponse).toBe(false);
    expect({ [Symbol.toStringTag]: 'Response' } instanceof LightResponse).toBe(false);
    expect(LightResponse.json({ a: 1 })).toBeInstanceOf(Response);
    expect(LightResponse.redirect('https://x.example/', 307).headers.get('location')).toBe(
      'https://x.example/',
    );
  });
});

const URLS: unknown[] = [
  'https://x.example/a b?c=d e#f',
  'HTTPS://X.Example:443/p/%7E',
  'https://h.example',
  new URL('https://u.example/x?y'),
  'not a url',
  '/relative',
  'https://user:pass@x.example/',
];
const METHODS: unknown[] = [
  undefined,
  null,
  'GET',
  'get',
  'Post',
  'PUT',
  'delete',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'TRACE',
  'connect',
  'a b',
  'PROPFIND',
];

async function requestLooked(make: () => Request | LightRequest): Promise<unknown> {
  const made = outcome(make);
  if (!('value' in (made as object))) return made;
  const req = (made as { value: Request }).value;
  const head = {
    url: req.url,
    method: req.method,
    headers: seen(req.headers),
    bodyUsed: req.bodyUsed,
    aborted: req.signal.aborted,
    tag: Object.prototype.toString.call(req),
  };
  const first = await settled(() => req.text());
  const second = await settled(() => req.text());
  return { head, first, second, bodyUsed: req.bodyUsed };
}

describe('Request', () => {
  it('every URL, method and body: the same request and errors as Node', async () => {
    const bodies = BODIES.filter(([name]) => !['a stream'].includes(name));
    for (const url of URLS) {
      for (const method of METHODS) {
        for (const [name, body] of bodies) {
          const init = { method, headers: { 'X-A': ' 1 ', host: 'h' }, body: body() };
          const light = await requestLooked(() => new LightRequest(url, init));
          const node = await requestLooked(() => new Request(url as string, init as RequestInit));
          expect(light, `${String(url)} ${String(method)} ${name}`).toEqual(node);
        }
      }
    }
  });

  it("hands over to Node's: its stream body, clone, formData, the fetch options, a Request made of it", async () => {
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    };
    const req = new LightRequest('https://x.example/', init);
    expect(req.signal.aborted).toBe(false);
    expect((await req.clone().formData()).get('a')).toBe('1');
    const node = new Request('https://x.example/', init);
    for (const name of [
      'cache',
      'credentials',
      'mode',
      'redirect',
      'referrer',
      'keepalive',
      'duplex',
    ] as const)
      expect((req as unknown as Request)[name], name).toBe(node[name]);
    const made = new LightRequest(req, { body: new Uint8Array([98, 61, 50]) });
    expect([made.url, made.method, await made.text()]).toEqual(['https://x.example/', 'POST', 'b=2']);
    expect(made).toBeInstanceOf(LightRequest);
    expect(req.body).toBeInstanceOf(ReadableStream);
    expect(await req.text()).toBe('a=1');
  });

  it('keeps no second copy of its body once read, or once its twin holds it', async () => {
    const payload = new Uint8Array(1 << 20).fill(0x61);
    const read = new LightRequest('https://x.example/', { method: 'POST', body: payload });
    expect(heldBody(read)?.length).toBe(payload.length);
    expect((await read.bytes()).length).toBe(payload.length);
    expect(heldBody(read)?.length).toBe(0);
    await expect(read.text()).rejects.toThrow('Body is unusable');
    expect(read.bodyUsed).toBe(true);

    // Hono's bodyLimit looks at the body first, so every POST gets its twin.
    const handed = new LightRequest('https://x.example/', { method: 'POST', body: payload });
    expect(handed.body).toBeInstanceOf(ReadableStream);
    expect(heldBody(handed)?.length).toBe(0);
    expect((await handed.text()).length).toBe(payload.length);

    const answer = new LightResponse('x'.repeat(1 << 20));
    expect((await answer.text()).length).toBe(1 << 20);
    expect(heldBody(answer)?.length).toBe(0);
    expect(heldBody(new LightResponse(null))).toBeNull();
  });
});
