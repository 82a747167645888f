/**
 * What a Lambda cold start loads is bounded: the entry and its static imports only, without AWS's
 * MSK IAM signer or the RE2 engine, which load from their chunks on first use; the built handler,
 * copied away from this repository's node_modules, answers from the broker on Node's own fetch
 * classes, connects with SCRAM and TLS, and still signs.
 */

import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Built, buildLambda, staticClosure } from '../../scripts/build.js';

/**
 * What a cold start parses and evaluates before the handler's first line, and all its first answer
 * loads (a describe). 643 KiB before the lazy route modules; 507,728 B with them; 476,502 B once
 * kafkajs kept only SASL's requests and the document's generator loaded apart; 458,774 B with zod's
 * JSON Schema conversion apart too; 416,252 B (449,866 B before) with the listing and the problems'
 * schema apart. 867.7 KiB with every dependency as published (no stand-ins, no rewritten files): zod's
 * locales (258 KiB, every export of zod is kept once @hono/zod-openapi extends its `z`), kafkajs's
 * every request (+119 KiB), zod's JSON Schema conversion and compile, zod-to-openapi's generator.
 */
const LAMBDA_START_MAX_BYTES = 900_000;
const ONLY_ON_FIRST_USE = [
  'node_modules/aws-msk-iam-sasl-signer-js/',
  'node_modules/@aws-sdk/',
  'node_modules/@smithy/',
  'node_modules/re2js/',
  'node_modules/jose/',
  'src/routes/reset.ts',
  'src/routes/metrics.ts',
  'src/groups/writes/group-writes.ts',
  'src/groups/offsets/tables.ts',
  // The MCP SDK, and the tools' bridge: only a POST /mcp loads them.
  'node_modules/@modelcontextprotocol/',
  'src/routes/mcp/serve.ts',
  // What only the document needs: the problems' schema and examples, the security scheme, the
  // probes' answers. (zod-to-openapi's generator is in the start: its package is one file.)
  'src/openapi/document.ts',
  'src/openapi/problem-schema.ts',
  'src/openapi/problems.ts',
  'src/openapi/security.ts',
  'src/openapi/probe-schemas.ts',
  // The listing and its query's schemas: loaded by the first GET /groups.
  'src/routes/group-listing.ts',
  'src/routes/listing-query.ts',
];

/** In a child's source: a function URL's GET event for the child's own `path`. */
const GET_PATH = `{
  version: '2.0', routeKey: '$default', rawPath: path, rawQueryString: '', headers: { host: 'fn.lambda-url.eu-west-1.on.aws' },
  requestContext: { domainName: 'fn.lambda-url.eu-west-1.on.aws', http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.1', userAgent: 'test' } },
  body: null, isBase64Encoded: false,
}`;

describe('the Lambda bundle', () => {
  let built: Built;
  let deployed: string;

  beforeAll(async () => {
    const outdir = await mkdtemp(join(tmpdir(), 'kgr-lambda-build-'));
    built = await buildLambda(outdir);
    // As the zip deploys it: the directory alone, away from any node_modules.
    deployed = await mkdtemp(join(tmpdir(), 'kgr-lambda-'));
    await cp(outdir, deployed, { recursive: true });
    await rm(outdir, { recursive: true, force: true });
  });

  afterAll(async () => {
    if (deployed) await rm(deployed, { recursive: true, force: true });
  });

  /** Runs `child` (module source) in a Node of its own in the deployed directory: its last line, parsed. */
  async function inDeployed(child: string, env: Record<string, string> = {}): Promise<unknown> {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', child], {
      cwd: deployed,
      env: {
        PATH: process.env.PATH,
        KAFKA_BROKERS: inject('kafkaBrokers'),
        AUTH: 'none',
        LOG_LEVEL: 'warn',
        ...env,
      },
    });
    return JSON.parse(stdout.trim().split('\n').pop() ?? '');
  }

  it(`a cold start loads at most ${LAMBDA_START_MAX_BYTES} B, none of it the MSK signer, RE2, JWTs, writes, offsets or metrics`, () => {
    const start = staticClosure(built.meta, built.entry);
    expect(start.bytes).toBeLessThanOrEqual(LAMBDA_START_MAX_BYTES);
    for (const dir of ONLY_ON_FIRST_USE) {
      expect(start.inputs.filter((input) => input.includes(dir))).toEqual([]);
      // Still shipped, in a chunk of its own.
      const all = Object.values(built.meta.outputs).flatMap((o) => Object.keys(o.inputs));
      expect(all.some((input) => input.includes(dir))).toBe(true);
    }
  });

  it("answers on the platform's own Request, Response and Headers: one Fetch, Node's", async () => {
    // Node loads its fetch classes (undici) on their first touch; an answer made with the
    // platform's touches them, one made with classes of the bundle's own would not.
    const child = `
      const undici = () => process.moduleLoadList.some((m) => m.includes('undici'));
      const { handler, __lambdaInternals } = await import('./index.mjs');
      const path = '/groups/no-such-group';
      const res = await handler(${GET_PATH});
      const afterAnswer = undici();
      await __lambdaInternals.reset();
      console.log(JSON.stringify({ status: res.statusCode, afterAnswer }));
      process.exit(0);
    `;
    expect(await inDeployed(child)).toEqual({ status: 404, afterAnswer: true });
  });

  it("a start file makes a `require` only if it calls one (kafkajs, esbuild's helper)", async () => {
    const start = staticClosure(built.meta, built.entry).files;
    const banner = 'const require = __createRequire(import.meta.url);';
    const withBanner: string[] = [];
    for (const file of start) {
      const code = await readFile(join(deployed, relative(dirname(built.entry), file)), 'utf8');
      if (!code.includes(banner)) continue;
      withBanner.push(file);
      expect(/\brequire\b/.test(code.slice(code.indexOf(banner) + banner.length)), file).toBe(true);
    }
    // The small chunk of esbuild's require helper; kafkajs's
    // requires go through it.
    expect(withBanner.length).toBe(1);
  });

  it('a start loads at most three files: the entry, the chunk of all it imports, the require helper', () => {
    // Each lazy module of the sources loads through a wrapper that imports the entry
    // (scripts/lazy-chunks-join-start.ts); without it esbuild cut the start into 31 files by which
    // lazy modules share each of them (a third of the import's CPU, docs/BENCHMARKS.md).
    const start = staticClosure(built.meta, built.entry);
    expect(start.files.length).toBeLessThanOrEqual(3);
  });

  const sasl = inject('kafkaSasl');
  const tls = inject('kafkaTls');
  it.skipIf(!sasl || !tls)('SCRAM-SHA-512 and TLS connect from the deployed bundle', async () => {
    const child = `
      const { handler, __lambdaInternals } = await import('./index.mjs');
      const path = '/groups/' + encodeURIComponent('no-such-group-' + process.pid);
      const res = await handler(${GET_PATH});
      await __lambdaInternals.reset();
      console.log(JSON.stringify({ status: res.statusCode, type: JSON.parse(res.body).type }));
      process.exit(0);
    `;
    const missing = { status: 404, type: '/problems/group-not-found' };
    const scram = {
      KAFKA_BROKERS: sasl?.bootstrap ?? '',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: sasl?.username ?? '',
      KAFKA_SASL_PASSWORD: sasl?.password ?? '',
    };
    expect(await inDeployed(child, scram)).toEqual(missing);
    const overTls = { KAFKA_BROKERS: tls?.bootstrap ?? '', KAFKA_SSL_CA: tls?.caPem ?? '' };
    expect(await inDeployed(child, overTls)).toEqual(missing);
    // A wrong password is still refused: authentication ran.
    const refused = await inDeployed(child, { ...scram, KAFKA_SASL_PASSWORD: 'not-the-password' });
    expect(refused).toMatchObject({ status: 503, type: '/problems/broker-unavailable' });
  });

  it('the deployed handler answers from the broker, then loads the signer chunk and signs', async () => {
    const child = `
      const { handler, __lambdaInternals } = await import('./index.mjs');
      const path = '/cluster';
      const res = await handler(${GET_PATH});
      const { token } = await __lambdaInternals.awsMskIamSigner('eu-west-1');
      await __lambdaInternals.reset();
      console.log(JSON.stringify({ status: res.statusCode, body: JSON.parse(res.body), token }));
      process.exit(0);
    `;
    const out = (await inDeployed(child, {
      AWS_ACCESS_KEY_ID: 'AKIAKGRTESTFAKE00002',
      AWS_SECRET_ACCESS_KEY: 'fakeSecretForTheBundleTest',
      AWS_REGION: 'eu-west-1',
    })) as {
      status: number;
      body: { clusterId?: unknown };
      token: string;
    };
    expect(out.status).toBe(200);
    expect(out.body.clusterId).toEqual(expect.any(String));
    const url = new URL(Buffer.from(out.token, 'base64url').toString());
    expect(url.searchParams.get('Action')).toBe('kafka-cluster:Connect');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIAKGRTESTFAKE00002\//);
  });

  it('the deployed handler builds the document and lists the MCP tools from the chunks loaded apart', async () => {
    const child = `
      const { handler, __lambdaInternals } = await import('./index.mjs');
      const call = (method, path, body, headers) => handler({
        version: '2.0', routeKey: '$default', rawPath: path, rawQueryString: '', headers: { host: 'fn.lambda-url.eu-west-1.on.aws', ...headers },
        requestContext: { domainName: 'fn.lambda-url.eu-west-1.on.aws', http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.1', userAgent: 'test' } },
        body, isBase64Encoded: false,
      });
      const doc = await call('GET', '/openapi.json', null, {});
      const mcp = await call('POST', '/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        { 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
      await __lambdaInternals.reset();
      // Compared here: the whole document on stdout would be cut short by process.exit.
      const committed = JSON.parse((await import('node:fs')).readFileSync(process.env.COMMITTED, 'utf8'));
      const tools = JSON.parse(mcp.body).result?.tools ?? [];
      console.log(JSON.stringify({
        doc: [doc.statusCode, JSON.stringify(JSON.parse(doc.body)) === JSON.stringify(committed)],
        mcp: [mcp.statusCode, tools.map((t) => [t.name, t.inputSchema.type])],
      }));
      process.exit(0);
    `;
    const out = (await inDeployed(child, {
      // The committed document, which the unit tests build from the sources.
      COMMITTED: fileURLToPath(new URL('../../sdk/openapi.json', import.meta.url)),
    })) as {
      doc: [number, boolean];
      mcp: [number, [string, string][]];
    };
    expect(out.doc).toEqual([200, true]);
    expect(out.mcp[0]).toBe(200);
    expect(out.mcp[1]).toContainEqual(['describe_consumer_group', 'object']);
    for (const [name, type] of out.mcp[1]) expect(type, name).toBe('object');
  });

  it('its first answer, a describe, loads no chunk beyond what the start loads', async () => {
    const log = join(deployed, 'loaded.log');
    // A module hook records every file the process loads, the chunks imported on first use too.
    const hook = `import { appendFileSync } from 'node:fs';
      export async function load(url, context, next) {
        if (url.startsWith('file:')) appendFileSync(process.env.LOADED_LOG, url + '\\n');
        return next(url, context);
      }`;
    const child = `
      import { register } from 'node:module';
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
      const { handler, __lambdaInternals } = await import('./index.mjs');
      const path = '/groups/' + encodeURIComponent('no-such-group-' + process.pid);
      const res = await handler(${GET_PATH});
      await __lambdaInternals.reset();
      console.log(JSON.stringify({ status: res.statusCode, type: JSON.parse(res.body).type }));
      process.exit(0);
    `;
    expect(await inDeployed(child, { LOADED_LOG: log })).toEqual({
      status: 404,
      type: '/problems/group-not-found',
    });
    const name = (file: string) => /(chunks\/[^/]+|index\.mjs)$/.exec(file)?.[1];
    const loaded = (await readFile(log, 'utf8'))
      .split('\n')
      .filter((url) => url.startsWith(pathToFileURL(deployed).href))
      .map((url) => name(fileURLToPath(url)));
    const start = staticClosure(built.meta, built.entry);
    expect(new Set(loaded)).toEqual(new Set(start.files.map(name)));
    expect(start.bytes).toBeLessThanOrEqual(LAMBDA_START_MAX_BYTES);
  });
});
