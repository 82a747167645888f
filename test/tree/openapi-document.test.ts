/**
 * The OpenAPI document as generators read it: every operation named and tagged, 64-bit values
 * marked int64, numeric parameters typed with bounds, batch outcomes a named discriminated oneOf,
 * `servers` from API_PUBLIC_URL or relative (never from the request), and every example valid against its schema
 * (checked with Ajv, walking the whole document).
 */

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/generate-sdk.js';
import { API_VERSION, createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { GroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document walked generically, any node any shape
type Json = Record<string, any>;

const doc: Json = JSON.parse(await openApiDocument());
const schemas: Json = doc.components.schemas;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] as Json })),
);

describe('the OpenAPI document', () => {
  it('is API 1.1.0', () => {
    expect(API_VERSION).toBe('1.1.0');
    expect(doc.info.version).toBe(API_VERSION);
  });

  it('names every operation with a short operationId and exactly one declared tag', () => {
    expect(
      Object.fromEntries(operations.map(({ path, method, op }) => [`${method} ${path}`, op.operationId])),
    ).toEqual({
      'get /healthz': 'getHealth',
      'get /readyz': 'getReadiness',
      'get /groups': 'listGroups',
      'get /groups.ndjson': 'streamGroups',
      'get /groups.events': 'streamGroupsEvents',
      'get /groups/{groupId}/events': 'streamGroupEvents',
      'get /topics/{topic}/groups': 'listTopicGroups',
      'get /topics/{topic}/groups.ndjson': 'streamTopicGroups',
      'get /groups/{groupId}': 'getGroup',
      'post /groups/describe': 'describeGroups',
      'get /groups/{groupId}/offsets': 'getGroupOffsets',
      'get /groups/{groupId}/configs': 'getGroupConfigs',
      'patch /groups/{groupId}/configs': 'changeGroupConfigs',
      'get /cluster': 'getCluster',
      'get /cluster/protocols': 'getClusterProtocols',
      'get /cluster/protocols.ndjson': 'streamClusterProtocols',
      'delete /groups/{groupId}': 'deleteGroup',
      'delete /groups/{groupId}/offsets': 'deleteGroupOffsets',
      'delete /groups/{groupId}/members/{instanceId}': 'removeGroupMember',
      'post /groups/{groupId}/members/remove': 'removeGroupMembers',
      'get /groups/{groupId}/health': 'getGroupHealth',
      'get /groups/{groupId}/diagnosis': 'getGroupDiagnosis',
      'get /metrics': 'getMetrics',
      'post /groups/{groupId}/offsets/reset': 'resetGroupOffsets',
      'get /clusters': 'listClusters',
      'get /clusters/{alias}': 'getClusterByAlias',
      'post /mcp': 'mcp',
      // Each group route once more under one cluster, generated from its own definition.
      'get /clusters/{alias}/readyz': 'getReadinessInCluster',
      'get /clusters/{alias}/cluster': 'getClusterInCluster',
      'get /clusters/{alias}/cluster/protocols': 'getClusterProtocolsInCluster',
      'get /clusters/{alias}/cluster/protocols.ndjson': 'streamClusterProtocolsInCluster',
      'get /clusters/{alias}/metrics': 'getMetricsInCluster',
      'get /clusters/{alias}/groups': 'listGroupsInCluster',
      'get /clusters/{alias}/groups.ndjson': 'streamGroupsInCluster',
      'get /clusters/{alias}/groups.events': 'streamGroupsEventsInCluster',
      'get /clusters/{alias}/groups/{groupId}/events': 'streamGroupEventsInCluster',
      'get /clusters/{alias}/topics/{topic}/groups': 'listTopicGroupsInCluster',
      'get /clusters/{alias}/topics/{topic}/groups.ndjson': 'streamTopicGroupsInCluster',
      'get /clusters/{alias}/groups/{groupId}': 'getGroupInCluster',
      'post /clusters/{alias}/groups/describe': 'describeGroupsInCluster',
      'get /clusters/{alias}/groups/{groupId}/offsets': 'getGroupOffsetsInCluster',
      'get /clusters/{alias}/groups/{groupId}/configs': 'getGroupConfigsInCluster',
      'patch /clusters/{alias}/groups/{groupId}/configs': 'changeGroupConfigsInCluster',
      'delete /clusters/{alias}/groups/{groupId}': 'deleteGroupInCluster',
      'delete /clusters/{alias}/groups/{groupId}/offsets': 'deleteGroupOffsetsInCluster',
      'delete /clusters/{alias}/groups/{groupId}/members/{instanceId}': 'removeGroupMemberInCluster',
      'post /clusters/{alias}/groups/{groupId}/members/remove': 'removeGroupMembersInCluster',
      'get /clusters/{alias}/groups/{groupId}/health': 'getGroupHealthInCluster',
      'get /clusters/{alias}/groups/{groupId}/diagnosis': 'getGroupDiagnosisInCluster',
      'post /clusters/{alias}/groups/{groupId}/offsets/reset': 'resetGroupOffsetsInCluster',
    });
    const tags = new Set((doc.tags as Json[]).map((t) => t.name));
    // One tag each, the mirrors included: generators make one API class per tag, and an operation
    // in two classes exports its request types twice (typescript-fetch's TS2308).
    for (const { path, method, op } of operations) {
      expect(op.tags, `${method} ${path}`).toHaveLength(1);
      expect(tags.has(op.tags[0]), op.tags[0]).toBe(true);
    }
    const mirrored = operations.filter(({ path }) => path.startsWith('/clusters/{alias}/'));
    for (const { op } of mirrored) {
      const own = operations.find((o) => o.op.operationId === op.operationId.replace(/InCluster$/, ''));
      expect(op.tags, op.operationId).toEqual(own?.op.tags);
    }
  });

  it('gives every operation one success media type, the stream its own operation', () => {
    for (const { path, method, op } of operations) {
      const success = Object.entries(op.responses as Json).filter(([status]) => /^2/.test(status));
      const types = success.flatMap(([, response]) => Object.keys(response.content ?? {}));
      expect(new Set(types).size, `${method} ${path}: ${types.join(', ')}`).toBeLessThanOrEqual(1);
    }
    const media = (path: string) => Object.keys(doc.paths[path].get.responses['200'].content);
    expect(media('/groups')).toEqual(['application/json']);
    expect(media('/groups.ndjson')).toEqual(['application/x-ndjson']);
    expect(media('/clusters/{alias}/groups.ndjson')).toEqual(['application/x-ndjson']);
    expect(media('/groups.events')).toEqual(['text/event-stream']);
    expect(media('/groups/{groupId}/events')).toEqual(['text/event-stream']);
    expect(doc.paths['/groups'].get.responses['406'].content['application/problem+json']).toBeDefined();
  });

  it('gives every integer a format, and int64 to every offset and lag', () => {
    const untyped: string[] = [];
    walk(doc, '#', (node, at) => {
      if (node.type === 'integer' && node.format !== 'int32' && node.format !== 'int64') untyped.push(at);
    });
    // Retry-After is seconds on the wire, not a Kafka value: small by nature, any integer type fits.
    expect(untyped.filter((at) => !at.includes('/headers/Retry-After/'))).toEqual([]);

    const int64 = [
      ['PartitionOffsets', 'offset'],
      ['PartitionOffsets', 'endOffset'],
      ['PartitionOffsets', 'lag'],
      ['TopicOffsets', 'lag'],
      ['LagTotals', 'lag'],
      ['MaxLag', 'lag'],
      ['StreamsTaskOffset', 'offset'],
    ];
    for (const [schema, field] of int64) {
      const property = schemas[schema as string].properties[field as string];
      const types = property.type ?? property.anyOf?.map((s: Json) => s.type);
      expect([types].flat(), `${schema}.${field}`).toContain('integer');
      expect(
        property.format ?? property.anyOf?.find((s: Json) => s.type === 'integer')?.format,
        `${schema}.${field}`,
      ).toBe('int64');
    }
  });

  it('types `limit` as an integer with its bounds and default', () => {
    const list = operations.find((o) => o.op.operationId === 'listGroups')?.op;
    const limit = list?.parameters.find((p: Json) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000, default: 100 });
  });

  it('describes a batch outcome as a named oneOf discriminated on `status`', () => {
    const outcome = schemas.BatchDescribeOutcome;
    expect(outcome.oneOf).toEqual([
      { $ref: '#/components/schemas/BatchDescribeFound' },
      { $ref: '#/components/schemas/BatchDescribeFailed' },
    ]);
    expect(outcome.discriminator).toEqual({
      propertyName: 'status',
      mapping: {
        found: '#/components/schemas/BatchDescribeFound',
        failed: '#/components/schemas/BatchDescribeFailed',
      },
    });
    expect(schemas.BatchDescribeFailed.properties.problem).toEqual({ $ref: '#/components/schemas/Problem' });
    expect(schemas.Group.discriminator.propertyName).toBe('type');
  });

  it('gives every member of every group type the same core fields', () => {
    const core = ['memberId', 'instanceId', 'clientId', 'clientHost', 'rack', 'partitions'];
    for (const member of ['ClassicMember', 'ConsumerMember', 'ShareMember', 'StreamsMember']) {
      expect(schemas[member].required, member).toEqual(expect.arrayContaining(core));
      expect(schemas[member].properties.partitions.items).toEqual({
        $ref: '#/components/schemas/TopicPartitions',
      });
    }
    for (const group of ['ClassicGroup', 'ConsumerGroup', 'ShareGroup', 'StreamsGroup']) {
      expect(schemas[group].required, group).toEqual(
        expect.arrayContaining([
          'type',
          'groupId',
          'state',
          'protocolType',
          'assignor',
          'groupEpoch',
          'assignmentEpoch',
          'coordinator',
          'members',
        ]),
      );
    }
  });

  it('lists a relative server in `servers`, never one from the request, or API_PUBLIC_URL when set', async () => {
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const service = {} as GroupService; // the document is built without calling it
    // Any host served: the point is what a document built from a request for another host names.
    const security = securityFrom(loadConfig({ AUTH: 'none', ALLOWED_HOSTS: '*' }));
    const app = createApp({ service, security });
    // The first request names a host of its own choosing; the document cached from it names none.
    const first = await app.request('https://attacker.example/openapi.json', {
      headers: { host: 'attacker.example', 'x-forwarded-host': 'attacker.example' },
    });
    expect(JSON.stringify(await first.json())).not.toContain('attacker.example');
    const second = await app.request('https://groups.example.net:8443/openapi.json');
    const served = (await second.json()) as Json;
    expect(served.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(JSON.stringify(served)).not.toContain('attacker.example');
    const proxied = await createApp({
      service,
      security,
      publicUrl: 'https://gateway.example.net/kafka',
    }).request('https://attacker.example/openapi.json');
    expect(((await proxied.json()) as Json).servers[0].url).toBe('https://gateway.example.net/kafka');
  });

  it('has examples, and every one of them is valid against its schema', () => {
    // Refs left as calls and each validator looked up by its pointer: a third of the compile time of
    // inlining every referenced schema into each of the ~800 validators.
    const ajv = new Ajv2020({ strict: false, allErrors: true, inlineRefs: false });
    addFormats.default(ajv);
    ajv.addSchema(doc, 'openapi.json');
    const checked: string[] = [];
    const invalid: string[] = [];
    const check = (schemaAt: string, value: unknown, at: string) => {
      const validate = ajv.getSchema(`openapi.json${schemaAt}`);
      if (!validate) throw new Error(`no schema at ${schemaAt}`);
      if (!validate(value)) invalid.push(`${at}: ${ajv.errorsText(validate.errors)}`);
      checked.push(at);
    };
    walk(doc, '#', (node, at) => {
      // A schema's own example.
      if ('example' in node && (node.type || node.properties || node.oneOf || node.anyOf || node.$ref))
        check(at, node.example, `${at}/example`);
      // Parameters and media types: example(s) beside a schema.
      if (node.schema && typeof node.schema === 'object') {
        if ('example' in node) check(`${at}/schema`, node.example, `${at}/example`);
        for (const [name, example] of Object.entries((node.examples ?? {}) as Json))
          check(`${at}/schema`, example.value, `${at}/examples/${name}`);
      }
    });
    expect(invalid).toEqual([]);
    // Every response body and every parameter shows one.
    expect(checked.length).toBeGreaterThan(60);
    for (const { path, method, op } of operations) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        for (const [type, media] of Object.entries((response.content ?? {}) as Json)) {
          const has = media.example !== undefined || media.examples || media.schema?.example !== undefined;
          const ref = media.schema?.$ref?.split('/').pop();
          expect(
            has || (ref && schemas[ref].example !== undefined),
            `${method} ${path} ${status} ${type}`,
          ).toBeTruthy();
        }
      }
    }
  }, 90_000); // one validator compiled per schema with an example: seconds alone, more under load

  it('fails the example check when an example misses a required field', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    const broken = structuredClone(doc);
    delete broken.components.schemas.ClusterBroker.example.rack;
    ajv.addSchema(broken, 'openapi.json');
    const validate = ajv.compile({ $ref: 'openapi.json#/components/schemas/ClusterBroker' });
    expect(validate(broken.components.schemas.ClusterBroker.example)).toBe(false);
  });
});

/** Calls `visit` on every object of the document with its JSON pointer. */
function walk(node: unknown, at: string, visit: (node: Json, at: string) => void): void {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) walk(item, `${at}/${i}`, visit);
    return;
  }
  if (!node || typeof node !== 'object') return;
  visit(node as Json, at);
  for (const [key, value] of Object.entries(node)) {
    // Example values are data, not schemas: their own keys ("type", "example") must not be read as such.
    if (key === 'example' || key === 'examples') continue;
    walk(value, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, visit);
  }
}
