/*
  DescribeConfigs (API key 32), versions 1-4, flexible from 4 (Kafka 4.0 removed v0)
  (DescribeConfigsRequest.json / DescribeConfigsResponse.json)

  Request =>
    Resources               [DescribeConfigsResource]
      ResourceType          int8
      ResourceName          string
      ConfigurationKeys     [string]?
    IncludeSynonyms         bool
    IncludeDocumentation    bool     v3+
  Response =>
    ThrottleTimeMs          int32
    Results                 [DescribeConfigsResult]
      ErrorCode             int16
      ErrorMessage          string?
      ResourceType          int8
      ResourceName          string
      Configs               [DescribeConfigsResourceResult]
        Name                string
        Value               string?
        ReadOnly            bool
        ConfigSource        int8
        IsSensitive         bool
        Synonyms            [DescribeConfigsSynonym]
          Name              string
          Value             string?
          Source            int8
        ConfigType          int8     v3+
        Documentation       string?  v3+

  kafka-clients 4.4.0 prints DescribeConfigsRequestData.SCHEMA_4 and DescribeConfigsResponseData.SCHEMA_4:
    {resources:COMPACT_ARRAY({resource_type:INT8,resource_name:COMPACT_STRING,
     configuration_keys:COMPACT_NULLABLE_ARRAY(COMPACT_STRING),_tagged_fields}),
     include_synonyms:BOOLEAN,include_documentation:BOOLEAN,_tagged_fields}
    {throttle_time_ms:INT32,results:COMPACT_ARRAY({error_code:INT16,error_message:COMPACT_NULLABLE_STRING,
     resource_type:INT8,resource_name:COMPACT_STRING,configs:COMPACT_ARRAY({name:COMPACT_STRING,
     value:COMPACT_NULLABLE_STRING,read_only:BOOLEAN,config_source:INT8,is_sensitive:BOOLEAN,
     synonyms:COMPACT_ARRAY({name:COMPACT_STRING,value:COMPACT_NULLABLE_STRING,source:INT8,_tagged_fields}),
     config_type:INT8,documentation:COMPACT_NULLABLE_STRING,_tagged_fields}),_tagged_fields}),_tagged_fields}
  v1 and v2 lack include_documentation, config_type and documentation (v3 adds them), v1-3 use
  int16-prefixed strings and int32 counts. Resource type GROUP is 32 (KIP-848): a group's own
  configs. config_source (DescribeConfigsResponse.ConfigSource): UNKNOWN 0, TOPIC_CONFIG 1,
  DYNAMIC_BROKER_CONFIG 2, DYNAMIC_DEFAULT_BROKER_CONFIG 3, STATIC_BROKER_CONFIG 4, DEFAULT_CONFIG 5,
  DYNAMIC_BROKER_LOGGER_CONFIG 6, CLIENT_METRICS_CONFIG 7, GROUP_CONFIG 8. config_type: UNKNOWN 0,
  BOOLEAN 1, STRING 2, INT 3, SHORT 4, LONG 5, DOUBLE 6, LIST 7, CLASS 8, PASSWORD 9.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';

export const ConfigResourceType = {
  Topic: 2,
  Broker: 4,
  BrokerLogger: 8,
  ClientMetrics: 16,
  Group: 32,
} as const;

export interface DescribeConfigsResource extends Tagged {
  resourceType: number;
  resourceName: string;
  /** null: every config. */
  configurationKeys: string[] | null;
}

export interface DescribeConfigsRequest extends Tagged {
  resources: DescribeConfigsResource[];
  includeSynonyms: boolean;
  /** v3+. */
  includeDocumentation?: boolean;
}

export interface DescribeConfigsSynonym extends Tagged {
  name: string;
  value: string | null;
  source: number;
}

export interface DescribeConfigsResourceResult extends Tagged {
  name: string;
  value: string | null;
  readOnly: boolean;
  configSource: number;
  isSensitive: boolean;
  synonyms: DescribeConfigsSynonym[];
  /** v3+. */
  configType?: number;
  /** v3+. */
  documentation?: string | null;
}

export interface DescribeConfigsResult extends Tagged {
  errorCode: number;
  errorMessage: string | null;
  resourceType: number;
  resourceName: string;
  configs: DescribeConfigsResourceResult[];
}

export interface DescribeConfigsResponse extends Tagged {
  throttleTimeMs: number;
  results: DescribeConfigsResult[];
}

function writeResource(e: Encoder, r: DescribeConfigsResource): void {
  e.int8(r.resourceType)
    .string(r.resourceName)
    .nullableArray(r.configurationKeys, (w, k) => w.string(k));
  e.tags(r.unknownTaggedFields);
}

function readResource(d: Decoder): DescribeConfigsResource {
  return defined({
    resourceType: d.int8(),
    resourceName: d.string('resourceName'),
    configurationKeys: d.nullableArray((r) => r.string(), 1, 'configurationKeys'),
    unknownTaggedFields: d.tags(),
  });
}

function writeSynonym(e: Encoder, s: DescribeConfigsSynonym): void {
  e.string(s.name).nullableString(s.value).int8(s.source).tags(s.unknownTaggedFields);
}

function readSynonym(d: Decoder): DescribeConfigsSynonym {
  return defined({
    name: d.string('name'),
    value: d.nullableString('value'),
    source: d.int8(),
    unknownTaggedFields: d.tags(),
  });
}

function writeConfig(e: Encoder, c: DescribeConfigsResourceResult): void {
  e.string(c.name).nullableString(c.value).boolean(c.readOnly).int8(c.configSource).boolean(c.isSensitive);
  e.array(c.synonyms, writeSynonym);
  if (e.version >= 3) e.int8(c.configType ?? 0).nullableString(c.documentation ?? null);
  else {
    e.absent('configs[].configType', c.configType, 0);
    e.absent('configs[].documentation', c.documentation, null);
  }
  e.tags(c.unknownTaggedFields);
}

function readConfig(d: Decoder): DescribeConfigsResourceResult {
  return defined({
    name: d.string('name'),
    value: d.nullableString('value'),
    readOnly: d.boolean(),
    configSource: d.int8(),
    isSensitive: d.boolean(),
    synonyms: d.array(readSynonym, 3, 'synonyms'),
    configType: d.version >= 3 ? d.int8() : undefined,
    documentation: d.version >= 3 ? d.nullableString('documentation') : undefined,
    unknownTaggedFields: d.tags(),
  });
}

function writeResult(e: Encoder, r: DescribeConfigsResult): void {
  e.int16(r.errorCode).nullableString(r.errorMessage).int8(r.resourceType).string(r.resourceName);
  e.array(r.configs, writeConfig).tags(r.unknownTaggedFields);
}

function readResult(d: Decoder): DescribeConfigsResult {
  return defined({
    errorCode: d.int16(),
    errorMessage: d.nullableString('errorMessage'),
    resourceType: d.int8(),
    resourceName: d.string('resourceName'),
    configs: d.array(readConfig, 6, 'configs'),
    unknownTaggedFields: d.tags(),
  });
}

export const DescribeConfigs = defineApi<DescribeConfigsRequest, DescribeConfigsResponse>({
  apiKey: 32,
  name: 'DescribeConfigs',
  minVersion: 1,
  maxVersion: 4,
  flexibleFrom: 4,

  writeRequest(e, req) {
    e.array(req.resources, writeResource).boolean(req.includeSynonyms);
    if (e.version >= 3) e.boolean(req.includeDocumentation ?? false);
    else e.absent('includeDocumentation', req.includeDocumentation, false);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    return defined({
      resources: d.array(readResource, 3, 'resources'),
      includeSynonyms: d.boolean(),
      includeDocumentation: d.version >= 3 ? d.boolean() : undefined,
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    e.int32(res.throttleTimeMs).array(res.results, writeResult).tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    return defined({
      throttleTimeMs: d.int32(),
      results: d.array(readResult, 6, 'results'),
      unknownTaggedFields: d.tags(),
    });
  },
});
