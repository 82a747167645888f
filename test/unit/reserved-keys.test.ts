/**
 * JSON bodies with a key that names the machinery of JavaScript objects (`__proto__`, `constructor`,
 * `prototype`): a record drops `__proto__` silently, so the change would be applied in part. Each
 * such key is refused with a 400 naming it, on every route that takes a body, before any service
 * call (the stand-in service rejects every call it is not given). And no body field is dropped
 * silently: every body schema refuses a field it does not know.
 */

import { describe, expect, it } from 'vitest';
import { reservedKeys } from '../../src/openapi/validation.js';
import { standInApp } from '../support/stand-in-app.js';

const altered: unknown[] = [];
const app = standInApp(
  {
    describeGroup: async (groupId: string) => ({ groupId, type: 'share', state: 'Empty', members: [] }),
    alterGroupConfigs: async (...args: unknown[]) => void altered.push(args),
    groupConfigs: async () => [],
  } as never,
  { WRITES: 'enabled' },
);

const send = (method: string, path: string, raw: string, headers: Record<string, string> = {}) =>
  app.request(path, { method, headers: { 'content-type': 'application/json', ...headers }, body: raw });

interface Answer {
  status: number;
  type?: string;
  errors?: { in: string; name: string; expected: string; received: string | null }[];
}

async function answer(res: Response): Promise<Answer> {
  const body = (await res.json()) as Omit<Answer, 'status'>;
  return { status: res.status, type: body.type, errors: body.errors };
}

describe('PATCH /groups/{groupId}/configs with a reserved key', () => {
  it.each([
    ['{"set":{"__proto__":"x","share.auto.offset.reset":"earliest"}}', 'set.__proto__', '__proto__'],
    ['{"set":{"constructor":"x"}}', 'set.constructor', 'constructor'],
    ['{"set":{"prototype":"1"},"delete":["share.record.lock.duration.ms"]}', 'set.prototype', 'prototype'],
    ['{"__proto__":{"set":{"a":"b"}},"delete":["x"]}', '__proto__', '__proto__'],
  ])('%s answers 400 naming the key, and nothing is changed', async (raw, name, key) => {
    const res = await send('PATCH', '/groups/s1/configs?type=share', raw);
    const got = await answer(res);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(got).toMatchObject({ status: 400, type: '/problems/invalid-input' });
    expect(got.errors?.[0]).toMatchObject({ in: 'body', name, received: key });
    expect(got.errors?.[0]?.expected).toContain('__proto__');
    expect(altered).toEqual([]);
  });

  it('names every reserved key at any depth, the rest counted', async () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, { constructor: 1 }]));
    const got = reservedKeys(many);
    expect([got.total, got.errors.length, got.errors[0]?.name]).toEqual([30, 20, 'k0.constructor']);
    expect(reservedKeys(JSON.parse('[{"a":[{"__proto__":1}]}]')).errors[0]?.name).toBe('[0].a[0].__proto__');
  });

  it('walks a body nested 100,000 deep without a stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}{"__proto__":1}${']'.repeat(100_000)}`);
    expect(reservedKeys(deep).total).toBe(1);
  });
});

describe('every other JSON body', () => {
  it.each([
    ['POST', '/groups/describe', '{"groupIds":["a"],"__proto__":{"type":"share"}}', '__proto__'],
    ['POST', '/groups/s1/members/remove?type=classic', '{"instanceIds":["i"],"__proto__":{}}', '__proto__'],
    [
      'POST',
      '/groups/s1/offsets/reset',
      '{"type":"share","scenario":"to-offset","offsets":[{"topic":"t","partition":0,"offset":1,"constructor":2}]}',
      'offsets[0].constructor',
    ],
  ])('%s %s refuses the reserved key', async (method, path, raw, name) => {
    const got = await answer(await send(method, path, raw));
    expect(got).toMatchObject({ status: 400, type: '/problems/invalid-input' });
    expect(got.errors?.[0]).toMatchObject({ in: 'body', name });
  });

  it('refuses a field the member removal does not take, instead of dropping it and removing', async () => {
    const raw = '{"instanceIds":["i"],"dryRun":true}';
    const got = await answer(await send('POST', '/groups/s1/members/remove?type=classic', raw));
    expect(got).toMatchObject({ status: 400, type: '/problems/invalid-input' });
    expect(got.errors?.[0]).toMatchObject({ in: 'body', name: 'dryRun' });
  });

  it('refuses a reserved key in an MCP tool call rather than dropping the argument', async () => {
    const raw = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'describe_consumer_group', arguments: { groupId: 'g' } },
    }).replace('{"groupId":"g"}', '{"groupId":"g","__proto__":{"type":"share"}}');
    const got = await answer(
      await send('POST', '/mcp', raw, {
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      }),
    );
    expect(got).toMatchObject({ status: 400, type: '/problems/invalid-input' });
    expect(got.errors?.[0]).toMatchObject({ in: 'body', name: 'params.arguments.__proto__' });
  });
});
