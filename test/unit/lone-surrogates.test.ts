/**
 * JSON bodies whose strings hold a lone UTF-16 surrogate (`"\ud800"`): such a string has no UTF-8
 * spelling, so a group id, instance id, topic or config name made of it cannot be sent to Kafka
 * (the encoder refused it, and the answer was a 500). Each is a 400 naming the field, on every
 * route that takes a body, before any service call: the stand-in service records every call.
 */

import { describe, expect, it } from 'vitest';
import { reservedKeys } from '../../src/openapi/validation.js';
import { standInApp } from '../support/stand-in-app.js';

const calls: string[] = [];
const service = new Proxy({} as Record<string, unknown>, {
  get: (_target, name) =>
    name === 'then'
      ? undefined
      : async () => {
          calls.push(String(name));
          throw new Error('stand-in service: not reached by these requests');
        },
});
const app = standInApp(service as never, { WRITES: 'enabled' });

const send = (method: string, path: string, raw: string) =>
  app.request(path, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: raw,
  });

describe('a body string with a lone surrogate (stand-in service)', () => {
  it.each([
    ['POST', '/groups/describe', '{"groupIds":["ok","\\ud800"]}', 'groupIds[1]'],
    ['POST', '/groups/g/members/remove?type=classic', '{"instanceIds":["\\udfff"]}', 'instanceIds[0]'],
    ['PATCH', '/groups/g/configs?type=share&dryRun=true', '{"set":{"\\ud800":"1"}}', 'set.\ud800'],
    [
      'PATCH',
      '/groups/g/configs?type=share',
      '{"set":{"share.auto.offset.reset":"x\\ud83d"}}',
      'set.share.auto.offset.reset',
    ],
    ['PATCH', '/groups/g/configs?type=share', '{"delete":["\\udc00"]}', 'delete[0]'],
    [
      'POST',
      '/groups/g/offsets/reset',
      '{"type":"classic","scenario":"to-earliest","topics":[{"topic":"\\ud800"}]}',
      'topics[0].topic',
    ],
    [
      'POST',
      '/mcp',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"describe_consumer_group","arguments":{"groupId":"\\ud800"}}}',
      'params.arguments.groupId',
    ],
  ])('%s %s: 400 naming the field, no service call', async (method, path, raw, field) => {
    calls.length = 0;
    const res = await send(method, path, raw);
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { type: string; errors: { name: string; expected: string }[] };
    expect(problem.type).toBe('/problems/invalid-input');
    expect(problem.errors).toContainEqual(
      expect.objectContaining({
        name: field,
        expected: 'text with no lone UTF-16 surrogate (no UTF-8 spelling)',
      }),
    );
    expect(calls).toEqual([]);
  });

  it('takes a surrogate pair (an emoji) and text that only looks like an escape', () => {
    expect(reservedKeys({ groupIds: ['😀', '\\ud800', '\ud83d\ude00'] }).total).toBe(0);
    expect(reservedKeys(JSON.parse('{"a":{"b":["\\ud800"]},"\\udfff":1}')).total).toBe(2);
  });
});
