/**
 * A 400 says what a parameter accepts in the problem's own words, also where a schema carries no
 * message of its own: a repeated query parameter, a JSON-RPC envelope of the wrong shape, an id
 * past 2^53. zod's default sentences ("Invalid input: expected string, received array") are not
 * what a caller reads in `expected`. The group service is a stand-in: validation answers before
 * any broker call.
 */

import { describe, expect, it } from 'vitest';
import { standInApp } from '../support/stand-in-app.js';

const app = standInApp({}, { WRITES: 'enabled' });

interface Problem {
  type: string;
  errors: Array<{ in: string; name: string; expected: string; received: string | null }>;
}

async function problemOf(res: Response): Promise<Problem> {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const problem = (await res.json()) as Problem;
  for (const e of problem.errors) expect(e.expected).not.toMatch(/^(Invalid|Too big|Too small)\b/);
  return problem;
}

const mcp = (body: string) =>
  app.request('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body,
  });

describe('what a parameter accepts, in words', () => {
  it.each([
    '/groups?limit=1&limit=2',
    '/groups/g1/health?maxLag=1&maxLag=2',
    '/groups/g1/diagnosis?stuckAfterSeconds=60&stuckAfterSeconds=61',
    '/topics/t1/groups?limit=5&limit=6',
  ])('a repeated query parameter is "one value": %s', async (path) => {
    const problem = await problemOf(await app.request(path));
    expect(problem.errors[0]?.expected).toBe('one value (the parameter is not repeated)');
  });

  it('a repeated token parameter is "one value", the tokens still not echoed', async () => {
    const problem = await problemOf(await app.request('/groups/g1/diagnosis?since=abc&since=def'));
    expect(problem.errors[0]).toMatchObject({
      name: 'since',
      expected: 'one value (the parameter is not repeated)',
      received: '2 tokens of 3, 3 characters (not repeated)',
    });
  });

  it.each([
    ['[]', '(body)', 'an object'],
    ['null', '(body)', 'an object'],
    ['{"jsonrpc":"1.0","id":1,"method":"ping"}', 'jsonrpc', 'one of "2.0"'],
    ['{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', 'id', 'a string or a number'],
    ['{"jsonrpc":"2.0","id":9007199254740993123,"method":"ping"}', 'id', 'at most 9007199254740991'],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}', 'params', 'an object'],
  ])('an MCP envelope %s: %s expected %s', async (body, name, expected) => {
    const problem = await problemOf(await mcp(body));
    expect(problem.errors[0]).toMatchObject({ in: 'body', name, expected });
  });

  it('names a value that fails two checks once', async () => {
    const res = await app.request('/groups/e1/offsets/reset', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'classic',
        scenario: 'from-list',
        offsets: [{ topic: 't1', partition: 0, offset: 1e30 }],
      }),
    });
    const problem = await problemOf(res);
    expect(problem.errors.map((e) => e.name)).toEqual(['offsets[0].offset']);
  });

  it('PATCH configs deleting a config named like an Object property is not "in set and in delete"', async () => {
    const res = await app.request('/groups/g1/configs?type=consumer', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{"delete":["constructor"]}',
    });
    const text = await res.clone().text();
    expect(text).not.toContain('not both');
    // Validation passes it to the group service (the stand-in refuses every call): not a 400.
    expect(res.status).not.toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});
