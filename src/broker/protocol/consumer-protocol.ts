/*
  The consumer protocol: what classic groups of protocol type 'consumer' carry in DescribeGroups'
  MemberMetadata and MemberAssignment. Written by clients, not brokers, and never flexible.
  (ConsumerProtocolSubscription.json / ConsumerProtocolAssignment.json, versions 0-3)

  Subscription =>
    Version           int16              (the header: which version follows)
    Topics            [string]
    UserData          bytes?             (nullable)
    OwnedPartitions   [TopicPartition]   v1+
      Topic           string
      Partitions      [int32]
    GenerationId      int32              v2+  (default -1)
    RackId            string?            v3+  (nullable, default null)
  Assignment =>
    Version           int16
    AssignedPartitions [TopicPartition]
      Topic           string
      Partitions      [int32]
    UserData          bytes?             (nullable)

  A version above 3 is read with the v3 layout and its extra bytes are ignored, as Kafka does: the
  schemas promise that later versions only append fields.
*/

import { Decoder, defined, Encoder } from './codec.js';
import { decodeError, encodeError, UnsupportedVersionError } from './decode-error.js';
import { Reader } from './reader.js';

export const CONSUMER_PROTOCOL_MAX_VERSION = 3;

export interface TopicPartition {
  topic: string;
  partitions: number[];
}

export interface ConsumerProtocolSubscription {
  /** The version on the wire; may exceed 3 when decoded from a newer client. */
  version: number;
  topics: string[];
  userData: Uint8Array | null;
  ownedPartitions?: TopicPartition[];
  generationId?: number;
  rackId?: string | null;
}

export interface ConsumerProtocolAssignment {
  version: number;
  assignedPartitions: TopicPartition[];
  userData: Uint8Array | null;
}

function readTopicPartition(d: Decoder): TopicPartition {
  return { topic: d.string('topic'), partitions: d.int32Array('partitions') };
}

function writeTopicPartition(e: Encoder, tp: TopicPartition): void {
  e.string(tp.topic).int32Array(tp.partitions);
}

/**
 * Reads bytes framed as int16 version + body. Null for empty bytes: members of a group that is not
 * Stable have none, which is a state, not an error.
 */
function decodeVersioned<T>(
  what: string,
  bytes: Uint8Array,
  read: (d: Decoder, version: number) => T,
): T | null {
  if (bytes.length === 0) return null;
  const reader = new Reader(bytes);
  let version: number | undefined;
  try {
    version = reader.readInt16();
    if (version < 0) reader.fail(`negative version ${version}`, 0);
    const layout = Math.min(version, CONSUMER_PROTOCOL_MAX_VERSION);
    const value = read(new Decoder(reader, layout, false), version);
    if (version <= CONSUMER_PROTOCOL_MAX_VERSION) reader.expectEnd();
    return value;
  } catch (error) {
    throw decodeError(error, reader.offset, { apiVersion: version, message: what });
  }
}

function encodeVersioned(what: string, version: number, write: (e: Encoder) => void): Uint8Array {
  if (!Number.isInteger(version) || version < 0 || version > CONSUMER_PROTOCOL_MAX_VERSION) {
    throw new UnsupportedVersionError(what, version, 0, CONSUMER_PROTOCOL_MAX_VERSION);
  }
  const e = new Encoder(version, false);
  try {
    e.int16(version);
    write(e);
  } catch (error) {
    throw encodeError(error, { apiVersion: version, message: what });
  }
  return e.finish();
}

export function decodeConsumerProtocolSubscription(bytes: Uint8Array): ConsumerProtocolSubscription | null {
  return decodeVersioned('ConsumerProtocolSubscription', bytes, (d, version) => {
    const v = d.version;
    return defined({
      version,
      topics: d.stringArray('topics'),
      userData: d.nullableBytes('userData'),
      ownedPartitions: v >= 1 ? d.array(readTopicPartition, 6, 'ownedPartitions') : undefined,
      generationId: v >= 2 ? d.int32() : undefined,
      rackId: v >= 3 ? d.nullableString('rackId') : undefined,
    });
  });
}

export function encodeConsumerProtocolSubscription(subscription: ConsumerProtocolSubscription): Uint8Array {
  const s = subscription;
  return encodeVersioned('ConsumerProtocolSubscription', s.version, (e) => {
    const v = e.version;
    e.stringArray(s.topics).nullableBytes(s.userData);
    if (v >= 1) e.array(s.ownedPartitions ?? [], writeTopicPartition);
    else e.absent('ownedPartitions', s.ownedPartitions, []);
    if (v >= 2) e.int32(s.generationId ?? -1);
    else e.absent('generationId', s.generationId, -1);
    if (v >= 3) e.nullableString(s.rackId ?? null);
    else e.absent('rackId', s.rackId, null);
  });
}

export function decodeConsumerProtocolAssignment(bytes: Uint8Array): ConsumerProtocolAssignment | null {
  return decodeVersioned('ConsumerProtocolAssignment', bytes, (d, version) => ({
    version,
    assignedPartitions: d.array(readTopicPartition, 6, 'assignedPartitions'),
    userData: d.nullableBytes('userData'),
  }));
}

export function encodeConsumerProtocolAssignment(assignment: ConsumerProtocolAssignment): Uint8Array {
  return encodeVersioned('ConsumerProtocolAssignment', assignment.version, (e) => {
    e.array(assignment.assignedPartitions, writeTopicPartition).nullableBytes(assignment.userData);
  });
}
