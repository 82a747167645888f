/*
  IncrementalAlterConfigs (API key 44), versions 0-1, flexible from 1
  (IncrementalAlterConfigsRequest.json / IncrementalAlterConfigsResponse.json)

  Request =>
    Resources               [AlterConfigsResource]
      ResourceType          int8
      ResourceName          string
      Configs               [AlterableConfig]
        Name                string
        ConfigOperation     int8
        Value               string?
    ValidateOnly            bool
  Response =>
    ThrottleTimeMs          int32
    Responses               [AlterConfigsResourceResponse]
      ErrorCode             int16
      ErrorMessage          string?
      ResourceType          int8
      ResourceName          string

  kafka-clients 4.4.0 prints IncrementalAlterConfigsRequestData.SCHEMA_1 and ...ResponseData.SCHEMA_1:
    {resources:COMPACT_ARRAY({resource_type:INT8,resource_name:COMPACT_STRING,configs:COMPACT_ARRAY({
     name:COMPACT_STRING,config_operation:INT8,value:COMPACT_NULLABLE_STRING,_tagged_fields}),
     _tagged_fields}),validate_only:BOOLEAN,_tagged_fields}
    {throttle_time_ms:INT32,responses:COMPACT_ARRAY({error_code:INT16,error_message:COMPACT_NULLABLE_STRING,
     resource_type:INT8,resource_name:COMPACT_STRING,_tagged_fields}),_tagged_fields}
  v0 is the same with int16-prefixed strings and int32 counts. config_operation: SET 0, DELETE 1,
  APPEND 2, SUBTRACT 3. validate_only is Kafka's dry run: checked, nothing changed.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';

export const AlterConfigOperation = { Set: 0, Delete: 1, Append: 2, Subtract: 3 } as const;

export interface AlterableConfig extends Tagged {
  name: string;
  configOperation: number;
  value: string | null;
}

export interface AlterConfigsResource extends Tagged {
  resourceType: number;
  resourceName: string;
  configs: AlterableConfig[];
}

export interface IncrementalAlterConfigsRequest extends Tagged {
  resources: AlterConfigsResource[];
  validateOnly: boolean;
}

export interface AlterConfigsResourceResponse extends Tagged {
  errorCode: number;
  errorMessage: string | null;
  resourceType: number;
  resourceName: string;
}

export interface IncrementalAlterConfigsResponse extends Tagged {
  throttleTimeMs: number;
  responses: AlterConfigsResourceResponse[];
}

function writeConfig(e: Encoder, c: AlterableConfig): void {
  e.string(c.name).int8(c.configOperation).nullableString(c.value).tags(c.unknownTaggedFields);
}

function readConfig(d: Decoder): AlterableConfig {
  return defined({
    name: d.string('name'),
    configOperation: d.int8(),
    value: d.nullableString('value'),
    unknownTaggedFields: d.tags(),
  });
}

function writeResource(e: Encoder, r: AlterConfigsResource): void {
  e.int8(r.resourceType).string(r.resourceName).array(r.configs, writeConfig).tags(r.unknownTaggedFields);
}

function readResource(d: Decoder): AlterConfigsResource {
  return defined({
    resourceType: d.int8(),
    resourceName: d.string('resourceName'),
    configs: d.array(readConfig, 3, 'configs'),
    unknownTaggedFields: d.tags(),
  });
}

function writeResponse(e: Encoder, r: AlterConfigsResourceResponse): void {
  e.int16(r.errorCode).nullableString(r.errorMessage).int8(r.resourceType).string(r.resourceName);
  e.tags(r.unknownTaggedFields);
}

function readResponse(d: Decoder): AlterConfigsResourceResponse {
  return defined({
    errorCode: d.int16(),
    errorMessage: d.nullableString('errorMessage'),
    resourceType: d.int8(),
    resourceName: d.string('resourceName'),
    unknownTaggedFields: d.tags(),
  });
}

export const IncrementalAlterConfigs = defineApi<
  IncrementalAlterConfigsRequest,
  IncrementalAlterConfigsResponse
>({
  apiKey: 44,
  name: 'IncrementalAlterConfigs',
  minVersion: 0,
  maxVersion: 1,
  flexibleFrom: 1,

  writeRequest(e, req) {
    e.array(req.resources, writeResource).boolean(req.validateOnly).tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    return defined({
      resources: d.array(readResource, 3, 'resources'),
      validateOnly: d.boolean(),
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    e.int32(res.throttleTimeMs).array(res.responses, writeResponse).tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    return defined({
      throttleTimeMs: d.int32(),
      responses: d.array(readResponse, 5, 'responses'),
      unknownTaggedFields: d.tags(),
    });
  },
});
