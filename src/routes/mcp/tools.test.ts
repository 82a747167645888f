/**
 * The MCP tools without a broker: every table entry names a route of the document, its input
 * schema is that route's parameters, and the endpoint keeps HTTP's limits (401, body cap, rate
 * limit, 405 on GET). Asked with the MCP SDK's own client, through the app's fetch.
 */

import { describe, expect, it } from 'vitest';
import { appWith, connect, documentOf, KEY, post } from '../../../test/support/mcp-app.js';
import { toolRequest } from './dispatch.js';
import { toolRoute } from './schemas.js';
import { MCP_TOOLS } from './tools.js';

describe('the MCP tool table', () => {
  it('names each tool once, each after a route of the document', async () => {
    const document = await documentOf(appWith());
    expect(new Set(MCP_TOOLS.map((t) => t.name)).size).toBe(MCP_TOOLS.length);
    for (const spec of MCP_TOOLS) expect(() => toolRoute(document, spec, false), spec.name).not.toThrow();
    expect(() =>
      toolRoute(document, { ...MCP_TOOLS[0], operationId: 'noSuchRoute' } as never, false),
    ).toThrow(/noSuchRoute, not in the document/);
  });

  it("takes the route's own parameters, and a cluster where the route is mirrored and there are several", async () => {
    const document = await documentOf(appWith());
    const lag = toolRoute(
      document,
      MCP_TOOLS.find((t) => t.operationId === 'getGroupOffsets') as never,
      true,
    );
    expect([...lag.places]).toEqual([
      ['groupId', 'path'],
      ['isolation', 'query'],
      ['type', 'query'],
      ['include', 'query'],
      ['cluster', 'cluster'],
    ]);
    expect(lag.clusterPath).toBe('/clusters/{alias}/groups/{groupId}/offsets');
    const request = toolRequest(
      lag,
      { groupId: 'a b/c', type: 'classic', cluster: 'eu' },
      'http://x/mcp',
      new Headers(),
    );
    expect(request instanceof Request && request.url).toBe(
      'http://x/clusters/eu/groups/a%20b%2Fc/offsets?type=classic',
    );
    // A URL resolves '.' and '..' away: /groups/./offsets would be the group 'offsets', and
    // /clusters/../groups/g/offsets the default cluster's group.
    for (const [args, name] of [
      [{ groupId: '.' }, 'groupId'],
      [{ groupId: '..' }, 'groupId'],
      [{ groupId: 'g', cluster: '..' }, 'cluster'],
      [{ groupId: 'g', cluster: '.' }, 'cluster'],
    ] as const) {
      const refused = toolRequest(lag, args, 'http://x/mcp', new Headers());
      expect(refused, JSON.stringify(args)).toEqual([
        expect.objectContaining({ name: `params.arguments.${name}`, received: args[name] }),
      ]);
    }
  });

  it('sends the execute tool its fixed query and only its body fields', async () => {
    const document = await documentOf(appWith());
    const execute = toolRoute(document, MCP_TOOLS.find((t) => t.name.endsWith('_execute')) as never, false);
    expect(execute.inputSchema.required).toEqual(['groupId', 'type', 'planToken']);
    const request = toolRequest(
      execute,
      { groupId: 'g', type: 'classic', planToken: 't' },
      'http://x/mcp',
      new Headers({ authorization: 'Bearer k', cookie: 'not passed on' }),
    ) as Request;
    expect(request.url).toBe('http://x/groups/g/offsets/reset?execute=true');
    expect(await request.json()).toEqual({ type: 'classic', planToken: 't' });
    expect(request.headers.get('authorization')).toBe('Bearer k');
    expect(request.headers.get('cookie')).toBeNull();
    const refused = toolRequest(
      execute,
      { groupId: 'g', type: 'classic', planToken: 't', scenario: 'x' },
      'http://x/mcp',
      new Headers(),
    );
    expect(refused).toEqual([
      expect.objectContaining({ name: 'params.arguments.scenario', received: 'string' }),
    ]);
  });
});

describe('tool arguments of another JSON type than the input schema', () => {
  it('answers each as invalid params naming the argument, never as its spelling sent to the route', async () => {
    const app = appWith();
    const version = { 'mcp-protocol-version': '2025-06-18' };
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'describe_consumer_group',
        { groupId: 5 },
        "'params.arguments.groupId' expected string, received number",
      ],
      [
        'describe_consumer_group_lag',
        { groupId: true },
        "'params.arguments.groupId' expected string, received boolean",
      ],
      [
        'list_topic_consumer_groups',
        { topic: 7 },
        "'params.arguments.topic' expected string, received number",
      ],
      ['list_consumer_groups', { prefix: 5 }, "'params.arguments.prefix' expected string, received number"],
      ['list_consumer_groups', { cursor: {} }, "'params.arguments.cursor' expected string, received object"],
      ['list_consumer_groups', { limit: '5' }, "'params.arguments.limit' expected integer, received string"],
      ['list_consumer_groups', { limit: 1.5 }, "'params.arguments.limit' expected integer, received number"],
      [
        'list_consumer_groups',
        { type: 'classic' },
        "'params.arguments.type' expected an array of strings, received string",
      ],
      [
        'list_consumer_groups',
        { state: [1] },
        "'params.arguments.state' expected an array of strings, received array",
      ],
      [
        'describe_consumer_group',
        { groupId: 'g', type: 1 },
        "'params.arguments.type' expected string, received number",
      ],
      [
        'describe_consumer_group_health',
        { groupId: 'g', maxLag: '10' },
        "'params.arguments.maxLag' expected integer",
      ],
      ['describe_consumer_group', { groupId: '' }, "'params.arguments.groupId' expected a non-empty string"],
      [
        'describe_consumer_group_health',
        { groupId: '.' },
        "'params.arguments.groupId' expected a non-empty string other than '.' or '..'",
      ],
      ['describe_consumer_group', {}, "'params.arguments.groupId' is required by describe_consumer_group"],
      [
        'describe_cluster',
        { verbose: true },
        "'params.arguments.verbose' is not an argument of describe_cluster",
      ],
      [
        'reset_consumer_group_offsets_dry_run',
        { groupId: 'g', type: 'classic', scenario: 'to-earliest', allTopics: 'true' },
        "'params.arguments.allTopics' expected boolean, received string",
      ],
      // The dry run sets execute=false itself: an `execute` argument would make it an execute.
      [
        'reset_consumer_group_offsets_dry_run',
        { groupId: 'g', type: 'classic', scenario: 'to-earliest', allTopics: true, execute: 'true' },
        "'params.arguments.execute' is not an argument of reset_consumer_group_offsets_dry_run",
      ],
    ];
    for (const [name, args, said] of cases) {
      const res = await post(
        app,
        JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: args } }),
        version,
      );
      expect(res.status).toBe(200);
      const answer = (await res.json()) as {
        error?: { code: number; message: string; data?: { errors: { name: string }[] } };
      };
      expect(answer.error?.code, `${name} ${JSON.stringify(args)}: ${JSON.stringify(answer)}`).toBe(-32602);
      expect(answer.error?.message).toContain(said);
      expect(answer.error?.data?.errors[0]?.name).toMatch(/^params\.arguments\./);
    }
  });
});

describe('POST /mcp keeps the limits of HTTP', () => {
  it('lists only the tools the grants open, and answers GET with 405', async () => {
    const app = appWith();
    const client = await connect(app);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('describe_consumer_group_lag');
    expect(names.some((n) => n.startsWith('reset_'))).toBe(false);
    await client.close();
    const get = await app.request('/mcp', { headers: { authorization: `Bearer ${KEY}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it("answers the transport's own refusals as problems: 406 for the Accept, 400 for what is not MCP", async () => {
    const app = appWith();
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const onlyJson = await post(app, list, { accept: 'application/json' });
    expect(onlyJson.status).toBe(406);
    expect(onlyJson.headers.get('content-type')).toBe('application/problem+json');
    expect(await onlyJson.json()).toMatchObject({ type: '/problems/not-acceptable' });
    const notMcp = await post(app, JSON.stringify({ jsonrpc: '2.0', id: 1 }));
    expect(notMcp.status).toBe(400);
    expect(await notMcp.json()).toMatchObject({ type: '/problems/invalid-input', errors: [{ in: 'body' }] });
    const oldVersion = await post(app, list, { 'mcp-protocol-version': '1999-01-01' });
    expect(oldVersion.status).toBe(400);
    expect(await oldVersion.json()).toMatchObject({
      errors: [{ in: 'header', name: 'mcp-protocol-version' }],
    });
    const notJsonRpc = await post(app, JSON.stringify({ hello: 'world' }));
    expect(notJsonRpc.status).toBe(400);
    expect(await notJsonRpc.json()).toMatchObject({
      type: '/problems/invalid-input',
      errors: [{ in: 'body' }],
    });
  });

  it('refuses a body over MAX_BODY_BYTES with the 413 problem', async () => {
    const app = appWith({ MAX_BODY_BYTES: '1024' });
    const res = await post(
      app,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2000) } }),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ type: '/problems/payload-too-large' });
  });

  it('counts a tool call as its route request: over the rate limit it is a rate-limited tool error, then a 429', async () => {
    // A burst of 1: the POST carrying the call takes it, and the call's own request to its route
    // finds none left.
    const app = appWith({ RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_BURST: '1' });
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'list_consumer_groups', arguments: { limit: 5 } },
    });
    const version = { 'mcp-protocol-version': '2025-06-18' };
    const res = await post(app, call, version);
    expect(res.status).toBe(200);
    const answer = ((await res.json()) as { result: Record<string, unknown> }).result as {
      isError?: boolean;
      structuredContent?: Record<string, unknown>;
      _meta?: Record<string, unknown>;
    };
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toMatchObject({ type: '/problems/rate-limited', status: 429 });
    expect(answer._meta?.retryAfterSeconds).toEqual(expect.any(Number));
    const next = await post(app, call, version);
    expect(next.status).toBe(429);
    expect(JSON.stringify(answer)).not.toContain(KEY);
  });

  it('answers a request whose params misfit the method as invalid params naming the field, not an internal error', async () => {
    const app = appWith();
    const version = { 'mcp-protocol-version': '2025-06-18' };
    const cases: [unknown, string][] = [
      [{ name: 'list_consumer_groups', arguments: [] }, "'params.arguments' expected record, received array"],
      [
        { name: 'list_consumer_groups', arguments: 'x' },
        "'params.arguments' expected record, received string",
      ],
      [{ name: 5 }, "'params.name' expected string, received number"],
    ];
    for (const [params, said] of cases) {
      const res = await post(
        app,
        JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }),
        version,
      );
      expect(res.status).toBe(200);
      const answer = (await res.json()) as { id: unknown; error?: { code: number; message: string } };
      expect(answer.id).toBe(7);
      expect(answer.error?.code, JSON.stringify(answer)).toBe(-32602);
      expect(answer.error?.message).toContain(said);
      expect(answer.error?.message).not.toContain('"code"');
    }
    const arrayId = await post(
      app,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'describe_consumer_group', arguments: { groupId: [] } },
      }),
      version,
    );
    const arrayAnswer = (await arrayId.json()) as { error?: { code: number; message: string } };
    expect(arrayAnswer.error?.code).toBe(-32602);
    expect(arrayAnswer.error?.message).toContain(
      "'params.arguments.groupId' expected string, received array",
    );
    const init = await post(
      app,
      JSON.stringify({ jsonrpc: '2.0', id: 'i', method: 'initialize', params: { protocolVersion: 5 } }),
    );
    const refused = (await init.json()) as { error?: { code: number; message: string } };
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.message).toContain("'params.protocolVersion' expected string, received number");
  });
});
