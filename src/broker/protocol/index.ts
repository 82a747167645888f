/** The Kafka wire codec: pure functions from bytes to typed objects and back, for any runtime. */

export { type AnyApiMessage, ApiKey, type ApiMessage } from './api.js';
export {
  CONSUMER_PROTOCOL_MAX_VERSION,
  type ConsumerProtocolAssignment,
  type ConsumerProtocolSubscription,
  decodeConsumerProtocolAssignment,
  decodeConsumerProtocolSubscription,
  encodeConsumerProtocolAssignment,
  encodeConsumerProtocolSubscription,
  type TopicPartition,
} from './consumer-protocol.js';
export {
  ProtocolDecodeError,
  ProtocolEncodeError,
  ProtocolError,
  UnsupportedFieldVersionError,
  UnsupportedVersionError,
} from './decode-error.js';
export { ErrorCode, KAFKA_ERRORS, type KafkaErrorCode, type KafkaErrorName, kafkaError } from './errors.js';
export {
  type DecodedRequestFrame,
  type DecodedResponseFrame,
  decodeRequestFrame,
  decodeResponseFrame,
  encodeRequestFrame,
  encodeResponseFrame,
  type RequestHeader,
  requestHeaderVersion,
  responseHeaderVersion,
} from './headers.js';
export * from './messages/api-versions.js';
export * from './messages/consumer-group-describe.js';
export * from './messages/describe-groups.js';
export * from './messages/describe-share-group-offsets.js';
export * from './messages/find-coordinator.js';
export * from './messages/list-groups.js';
export * from './messages/list-offsets.js';
export * from './messages/metadata.js';
export * from './messages/offset-fetch.js';
export * from './messages/share-group-describe.js';
export * from './messages/streams-group-describe.js';
export { Reader, type TaggedField, type TaggedFieldHandler } from './reader.js';
export { API_MESSAGES } from './registry.js';
export { ZERO_UUID } from './uuid.js';
export { Writer } from './writer.js';
