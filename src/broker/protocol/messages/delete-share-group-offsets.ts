/*
  DeleteShareGroupOffsets (API key 92), version 0 only, flexible from 0
  (DeleteShareGroupOffsetsRequest.json / DeleteShareGroupOffsetsResponse.json)

  Request =>
    GroupId                 string
    Topics                  [DeleteShareGroupOffsetsRequestTopic]
      TopicName             string
  Response =>
    ThrottleTimeMs          int32
    ErrorCode               int16
    ErrorMessage            string?  (nullable, default null)
    Responses               [DeleteShareGroupOffsetsResponseTopic]
      TopicName             string
      TopicId               uuid
      ErrorCode             int16
      ErrorMessage          string?  (nullable, default null)

  New in Kafka 4.1 (KIP-932); 4.1 to 4.4 serve v0 only, 3.9 and 4.0 do not have it (ask ApiVersions).
  Whole topics only: there are no partitions in the request or the answer, unlike OffsetDelete.
  Errors are at the top level (the group: NON_EMPTY_GROUP for a live one) and per topic, each with
  a message.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';

export interface DeleteShareGroupOffsetsRequestTopic extends Tagged {
  topicName: string;
}

export interface DeleteShareGroupOffsetsRequest extends Tagged {
  groupId: string;
  topics: DeleteShareGroupOffsetsRequestTopic[];
}

export interface DeleteShareGroupOffsetsResponseTopic extends Tagged {
  topicName: string;
  topicId: string;
  errorCode: number;
  errorMessage: string | null;
}

export interface DeleteShareGroupOffsetsResponse extends Tagged {
  throttleTimeMs: number;
  errorCode: number;
  errorMessage: string | null;
  responses: DeleteShareGroupOffsetsResponseTopic[];
}

function writeRequestTopic(e: Encoder, t: DeleteShareGroupOffsetsRequestTopic): void {
  e.string(t.topicName);
  e.tags(t.unknownTaggedFields);
}

function readRequestTopic(d: Decoder): DeleteShareGroupOffsetsRequestTopic {
  return defined({ topicName: d.string('topicName'), unknownTaggedFields: d.tags() });
}

function writeResponseTopic(e: Encoder, t: DeleteShareGroupOffsetsResponseTopic): void {
  e.string(t.topicName).uuid(t.topicId).int16(t.errorCode).nullableString(t.errorMessage);
  e.tags(t.unknownTaggedFields);
}

function readResponseTopic(d: Decoder): DeleteShareGroupOffsetsResponseTopic {
  return defined({
    topicName: d.string('topicName'),
    topicId: d.uuid(),
    errorCode: d.int16(),
    errorMessage: d.nullableString('errorMessage'),
    unknownTaggedFields: d.tags(),
  });
}

export const DeleteShareGroupOffsets = defineApi<
  DeleteShareGroupOffsetsRequest,
  DeleteShareGroupOffsetsResponse
>({
  apiKey: 92,
  name: 'DeleteShareGroupOffsets',
  minVersion: 0,
  maxVersion: 0,
  flexibleFrom: 0,

  writeRequest(e, req) {
    e.string(req.groupId).array(req.topics, writeRequestTopic);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    return defined({
      groupId: d.string('groupId'),
      topics: d.array(readRequestTopic, 2, 'topics'),
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    e.int32(res.throttleTimeMs).int16(res.errorCode).nullableString(res.errorMessage);
    e.array(res.responses, writeResponseTopic);
    e.tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    return defined({
      throttleTimeMs: d.int32(),
      errorCode: d.int16(),
      errorMessage: d.nullableString('errorMessage'),
      responses: d.array(readResponseTopic, 21, 'responses'),
      unknownTaggedFields: d.tags(),
    });
  },
});
