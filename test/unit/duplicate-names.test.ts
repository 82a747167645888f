/**
 * JSON bodies that repeat a name: JSON.parse keeps the last, so what a proxy or an audit log reads
 * first would not be what is done. Each is refused with a 400 naming the repeated field, on every
 * route that takes a body (and its mirror under /clusters/{alias}) and in MCP tool arguments,
 * before any service call: the stand-in service records every call it is given.
 */

import { describe, expect, it } from 'vitest';
import { standInApp } from '../support/stand-in-app.js';

const calls: string[] = [];
const record =
  (name: string) =>
  async (...args: unknown[]) => {
    calls.push(`${name} ${JSON.stringify(args).slice(0, 200)}`);
    throw new Error('stand-in service');
  };
const app = standInApp(
  {
    describeGroup: record('describeGroup'),
    describeGroups: record('describeGroups'),
    removeMembers: record('removeMembers'),
    alterGroupConfigs: record('alterGroupConfigs'),
    resetOffsets: record('resetOffsets'),
  } as never,
  { WRITES: 'enabled' },
);

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

const send = (method: string, path: string, raw: string, headers: Record<string, string> = {}) =>
  app.request(path, { method, headers: { 'content-type': 'application/json', ...headers }, body: raw });

interface Answer {
  status: number;
  type?: string;
  detail?: string;
  errors?: { in: string; name: string; expected: string; received: string | null; message: string }[];
}

describe('a JSON body that repeats a name', () => {
  it.each([
    [
      'POST',
      '/groups/g1/offsets/reset',
      '{"type":"classic","scenario":"to-earliest","topics":["t"],"type":"consumer"}',
      'type',
    ],
    [
      'POST',
      '/groups/g1/members/remove?type=classic',
      '{"instanceIds":["a"],"instanceIds":["b"]}',
      'instanceIds',
    ],
    ['POST', '/groups/describe', '{"groupIds":["a"],"groupIds":["b"]}', 'groupIds'],
    ['POST', '/clusters/default/groups/describe', '{"groupIds":["a"], "groupIds" :["b"]}', 'groupIds'],
    [
      'PATCH',
      '/groups/g1/configs?type=share',
      '{"set":{"share.auto.offset.reset":"earliest","share.auto.offset.reset":"latest"}}',
      'set.share.auto.offset.reset',
    ],
    [
      'POST',
      '/groups/g1/offsets/reset',
      '{"type":"share","scenario":"to-offset","offsets":[{"topic":"t","partition":0,"offset":1,"\\u006fffset":2}]}',
      'offsets[0].offset',
    ],
  ])('%s %s answers 400 naming the field, and calls nothing', async (method, path, raw, name) => {
    const res = await send(method, path, raw);
    const got = (await res.json()) as Answer;
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(got).toMatchObject({ status: 400, type: '/problems/invalid-input' });
    expect(got.errors?.[0]).toMatchObject({
      in: 'body',
      name,
      message: `body field '${name}' appears twice`,
    });
    expect(got.detail).toContain(`body field '${name}' appears twice`);
    expect(calls).toEqual([]);
  });

  it('names each repeated field once, with how often it came', async () => {
    const got = (await (
      await send(
        'POST',
        '/groups/describe',
        '{"groupIds":["a"],"groupIds":["b"],"groupIds":["c"],"x":1,"x":2}',
      )
    ).json()) as Answer;
    expect(got.errors?.map((e) => e.message)).toEqual([
      "body field 'groupIds' appears 3 times",
      "body field 'x' appears twice",
    ]);
  });

  it('in MCP tool arguments: refused before the tool runs', async () => {
    const raw = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'describe_consumer_group', arguments: { groupId: 'g' } },
    }).replace('{"groupId":"g"}', '{"groupId":"a","groupId":"b"}');
    const got = (await (await send('POST', '/mcp', raw, MCP_HEADERS)).json()) as Answer;
    expect(got).toMatchObject({ status: 400, type: '/problems/invalid-input' });
    expect(got.errors?.[0]).toMatchObject({ in: 'body', name: 'params.arguments.groupId' });
    expect(calls).toEqual([]);
  });

  it('keeps the same name in different objects, and the body that repeats none', async () => {
    const res = await send('POST', '/groups/describe', '{"groupIds":["a"]}');
    // Past validation: the stand-in service is reached, and fails.
    expect(res.status).not.toBe(400);
    calls.length = 0;
    const nested = await send(
      'POST',
      '/groups/g1/offsets/reset',
      '{"type":"share","scenario":"from-list","offsets":[{"topic":"t","partition":0,"offset":1},{"topic":"t","partition":1,"offset":1}]}',
    );
    expect(nested.status).not.toBe(400);
    calls.length = 0;
  });
});
