/**
 * POST /mcp by protocol version, without a broker: 2026-07-28 as that version says a stateless
 * server answers (server/discover, cache hints, the header and version refusals, the trace context
 * in the log), and 2025-06-18 as before it.
 */

import { describe, expect, it } from 'vitest';
import { appWith, post } from '../../../test/support/mcp-app.js';
import { createLogger } from '../../logger.js';

/** A 2026-07-28 request: the envelope in `_meta`, the method (and name) in the headers too. */
function modern(method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return {
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 41,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          ...meta,
        },
      },
    }),
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name } as Record<
      string,
      string
    >,
  };
}

describe('POST /mcp on 2026-07-28, stateless', () => {
  it('answers server/discover with the versions it serves and its tools capability, cacheable by anyone', async () => {
    const { body, headers } = modern('server/discover');
    const res = await post(appWith(), body, headers);
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: Record<string, unknown> };
    expect(result).toMatchObject({
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: { listChanged: false } },
      resultType: 'complete',
      cacheScope: 'public',
      ttlMs: 60_000,
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'kafka-groups-rest' } },
    });
  });

  it("lists the caller's tools as a private result: another caller's grants may show others", async () => {
    const { body, headers } = modern('tools/list');
    const res = await post(appWith(), body, headers);
    const { result } = (await res.json()) as {
      result: { tools: { name: string }[] } & Record<string, unknown>;
    };
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'private', ttlMs: 60_000 });
    expect(result.tools.map((t) => t.name)).toContain('describe_consumer_group');
    expect(result.tools.map((t) => t.name).some((n) => n.startsWith('reset_'))).toBe(false);
  });

  it('refuses with 400 a header that disagrees with the body (-32020), a version it does not serve (-32022)', async () => {
    const app = appWith();
    const list = modern('tools/list');
    const mismatch = await post(app, list.body, { ...list.headers, 'mcp-method': 'prompts/list' });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toMatchObject({ id: 41, error: { code: -32020 } });
    const call = modern('tools/call', { name: 'describe_cluster', arguments: {} });
    const wrongName = await post(app, call.body, { ...call.headers, 'mcp-name': 'list_consumer_groups' });
    expect(wrongName.status).toBe(400);
    expect(await wrongName.json()).toMatchObject({ error: { code: -32020 } });
    const future = modern('tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' });
    const unserved = await post(app, future.body, {
      ...future.headers,
      'mcp-protocol-version': '2099-01-01',
    });
    expect(unserved.status).toBe(400);
    expect(await unserved.json()).toMatchObject({
      error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2099-01-01' } },
    });
    // initialize is gone from 2026-07-28: not found, as the version says.
    const init = modern('initialize', {
      protocolVersion: '2026-07-28',
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    });
    const gone = await post(app, init.body, init.headers);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error: { code: -32601 } });
  });

  it("names a misfit argument as every version does, in an answer of HTTP 200 (the handler's own)", async () => {
    const call = modern('tools/call', { name: 'describe_consumer_group', arguments: { groupId: 5 } });
    const res = await post(appWith(), call.body, call.headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      error: {
        code: -32602,
        message: expect.stringContaining('groupId'),
        data: {
          errors: [expect.objectContaining({ name: expect.stringContaining('groupId'), expected: 'string' })],
        },
      },
    });
  });

  it("logs each request with its method, tool, version and the caller's trace context, never a malformed one", async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appWith(
      {},
      createLogger('info', (line) => lines.push(JSON.parse(line))),
    );
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const call = modern(
      'tools/call',
      { name: 'no_such_tool', arguments: {} },
      { traceparent, tracestate: 'vendor=1' },
    );
    await post(app, call.body, call.headers);
    const forged = modern('tools/list', {}, { traceparent: '00-zz\n{"level":"error"}' });
    await post(app, forged.body, forged.headers);
    const mcp = lines.filter((l) => l.message === 'mcp');
    expect(mcp).toEqual([
      expect.objectContaining({
        method: 'tools/call',
        tool: 'no_such_tool',
        protocolVersion: '2026-07-28',
        status: 200,
        traceparent,
        tracestate: 'vendor=1',
      }),
      expect.objectContaining({ method: 'tools/list', protocolVersion: '2026-07-28' }),
    ]);
    expect(mcp[1]).not.toHaveProperty('traceparent');
  });
});

describe('POST /mcp on 2025-06-18', () => {
  it('answers initialize with 2025-06-18 and serves the tools on that version', async () => {
    const app = appWith();
    const init = await post(
      app,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'old', version: '1' },
        },
      }),
    );
    expect(await init.json()).toMatchObject({ result: { protocolVersion: '2025-06-18' } });
    const list = await post(app, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
      'mcp-protocol-version': '2025-06-18',
    });
    const { result } = (await list.json()) as {
      result: { tools: { name: string }[] } & Record<string, unknown>;
    };
    expect(result.tools.map((t) => t.name)).toContain('describe_consumer_group');
    // The 2026 vocabulary stays out of a 2025 answer.
    expect(result).not.toHaveProperty('resultType');
    expect(result).not.toHaveProperty('cacheScope');
  });
});
