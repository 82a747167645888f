/*
  Fetch (API key 1), versions 4-18, flexible from 12
  (FetchRequest.json / FetchResponse.json)

  Request =>
    ClusterId                 string?  v12+ tagged 0  (kept as an unknown tag)
    ReplicaId                 int32    v4-14 (default -1: a consumer)
    ReplicaState              struct   v15+ tagged 1  (followers only; kept as an unknown tag)
    MaxWaitMs                 int32
    MinBytes                  int32
    MaxBytes                  int32    (default 0x7fffffff)
    IsolationLevel            int8     (0 read uncommitted, 1 read committed)
    SessionId                 int32    v7+  (default 0: no fetch session)
    SessionEpoch              int32    v7+  (default -1: no fetch session, full request)
    Topics                    [FetchTopic]
      Topic                   string   v4-12
      TopicId                 uuid     v13+
      Partitions              [FetchPartition]
        Partition             int32
        CurrentLeaderEpoch    int32    v9+  (default -1: no fencing)
        FetchOffset           int64
        LastFetchedEpoch      int32    v12+ (default -1)
        LogStartOffset        int64    v5+  (default -1; followers only)
        PartitionMaxBytes     int32
        ReplicaDirectoryId    uuid     v17+ tagged 0  (followers only; kept as an unknown tag)
        HighWatermark         int64    v18+ tagged 1  (followers only; kept as an unknown tag)
    ForgottenTopicsData       [ForgottenTopic]  v7+
      Topic                   string   v7-12
      TopicId                 uuid     v13+
      Partitions              [int32]
    RackId                    string   v11+ (default "")
  Response =>
    ThrottleTimeMs            int32
    ErrorCode                 int16    v7+  (top level: the fetch session)
    SessionId                 int32    v7+  (default 0)
    Responses                 [FetchableTopicResponse]
      Topic                   string   v4-12
      TopicId                 uuid     v13+
      Partitions              [PartitionData]
        PartitionIndex        int32
        ErrorCode             int16
        HighWatermark         int64
        LastStableOffset      int64    (default -1)
        LogStartOffset        int64    v5+  (default -1)
        DivergingEpoch        struct   v12+ tagged 0  (followers only; kept as an unknown tag)
        CurrentLeader         struct   v12+ tagged 1
          LeaderId            int32    (default -1)
          LeaderEpoch         int32    (default -1)
        SnapshotId            struct   v12+ tagged 2  (KRaft metadata log only; kept as an unknown tag)
        AbortedTransactions   [AbortedTransaction]?  (nullable)
          ProducerId          int64
          FirstOffset         int64
        PreferredReadReplica  int32    v11+ (default -1)
        Records               records? (nullable bytes: int32 length, compact in flexible versions)
    NodeEndpoints             [NodeEndpoint]  v16+ tagged 0
      NodeId                  int32
      Host                    string
      Port                    int32
      Rack                    string?  (nullable, default null)

  v0-3 were removed in Kafka 4.0, so 4 is the floor; Kafka 3.9 serves 0-17 and 4.1 to 4.4 serve 4-18,
  so 4-17 reaches every broker from 3.9 to 4.4 and 18 is only asked of those that have it. v6, v8,
  v10, v14, v16 (request), v17 and v18 (response) change no bytes that a consumer sends or reads:
  they announce what the client understands (zstd from v10, tiered-storage errors from v14). v13
  names topics by id only (UNKNOWN_TOPIC_ID when the id is stale).

  This codec is for looking at the log, not for consuming it: a Fetch with a small MaxBytes and
  MaxWaitMs 0 at an offset, to read when the record at that offset was written. So Records is
  not parsed: only the header of its first record batch is read (see readRecordBatchHeader), never
  a record and never a decompression, which keeps it the same on every runtime. Records whose first
  batch has no v2 header (a legacy message set, magic 0 or 1, or fewer bytes than a header) come out
  with `firstBatch: null` and their size. Kafka returns the first batch whole even when it is larger
  than MaxBytes (KIP-74), so a budget smaller than a batch still gives its header. Encoding writes the
  header followed by zero bytes up to the size: enough for a stand-in broker, not a real log.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';
import { ProtocolEncodeError, UnsupportedFieldVersionError } from '../decode-error.js';
import { ErrorCode } from '../errors.js';
import { Reader, type TaggedField } from '../reader.js';
import { ZERO_UUID } from '../uuid.js';
import { Writer } from '../writer.js';

/** ReplicaId of an ordinary consumer (brokers send their own id). */
export const FETCH_CONSUMER_REPLICA_ID = -1;

const TAG_CURRENT_LEADER = 1;
const TAG_NODE_ENDPOINTS = 0;

/*
  RecordBatch, message format v2 (magic 2), as stored in the log and sent in Records (DefaultRecordBatch.java):
    BaseOffset            int64
    BatchLength           int32   (bytes after this field: the batch is 12 + BatchLength bytes)
    PartitionLeaderEpoch  int32
    Magic                 int8    (2)
    CRC                   uint32  (CRC-32C of Attributes to the end of the batch; not checked here)
    Attributes            int16   (bits 0-2 compression, 3 timestamp type, 4 transactional, 5 control,
                                   6 delete horizon set)
    LastOffsetDelta       int32   (last offset = BaseOffset + LastOffsetDelta)
    BaseTimestamp         int64   (first timestamp; the delete horizon instead when bit 6 is set)
    MaxTimestamp          int64
    ProducerId            int64
    ProducerEpoch         int16
    BaseSequence          int32
    RecordsCount          int32
    Records               ...     (compressed as a whole when compression is not none)
*/
export const RECORD_BATCH_HEADER_BYTES = 61;
const MAGIC_OFFSET = 16;

export const Compression = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const;
export type Compression = (typeof Compression)[number];

/**
 * CreateTime: the producer's clock; every record has its own timestamp, between BaseTimestamp and
 * MaxTimestamp. LogAppendTime: the broker's clock when it appended the batch, which is MaxTimestamp
 * and the timestamp of every record in the batch.
 */
export type TimestampType = 'CreateTime' | 'LogAppendTime';

export interface RecordBatchHeader {
  baseOffset: bigint;
  batchLength: number;
  partitionLeaderEpoch: number;
  magic: number;
  crc: number;
  /** As on the wire; the fields below are its bits, and must agree with it to be encoded. */
  attributes: number;
  compression: Compression;
  timestampType: TimestampType;
  isTransactional: boolean;
  /** A control batch (transaction marker): no user records. */
  isControl: boolean;
  lastOffsetDelta: number;
  baseTimestamp: bigint;
  maxTimestamp: bigint;
  producerId: bigint;
  producerEpoch: number;
  baseSequence: number;
  recordsCount: number;
}

/** What this codec keeps of a partition's Records: their size and the first batch's header. */
export interface FetchedRecords {
  sizeInBytes: number;
  /** Null when the bytes do not start with a v2 batch header (legacy message set, or too short). */
  firstBatch: RecordBatchHeader | null;
}

function attributesOf(attributes: number) {
  const codec = attributes & 0x07;
  const compression = Compression[codec];
  return {
    compression,
    codec,
    timestampType: (attributes & 0x08) === 0 ? ('CreateTime' as const) : ('LogAppendTime' as const),
    isTransactional: (attributes & 0x10) !== 0,
    isControl: (attributes & 0x20) !== 0,
  };
}

/**
 * The header of the first record batch in `records`, or null when they do not start with a v2
 * batch. Reads 61 bytes at most, whatever follows.
 */
export function readRecordBatchHeader(records: Uint8Array): RecordBatchHeader | null {
  if (records.length < RECORD_BATCH_HEADER_BYTES || records[MAGIC_OFFSET] !== 2) return null;
  const r = new Reader(records, 0, RECORD_BATCH_HEADER_BYTES);
  const baseOffset = r.readInt64();
  const batchLength = r.readInt32();
  const partitionLeaderEpoch = r.readInt32();
  const magic = r.readInt8();
  const crc = r.readUint32();
  const attributesAt = r.offset;
  const attributes = r.readInt16();
  const bits = attributesOf(attributes);
  const compression = bits.compression ?? r.fail(`unknown compression codec ${bits.codec}`, attributesAt);
  return {
    baseOffset,
    batchLength,
    partitionLeaderEpoch,
    magic,
    crc,
    attributes,
    compression,
    timestampType: bits.timestampType,
    isTransactional: bits.isTransactional,
    isControl: bits.isControl,
    lastOffsetDelta: r.readInt32(),
    baseTimestamp: r.readInt64(),
    maxTimestamp: r.readInt64(),
    producerId: r.readInt64(),
    producerEpoch: r.readInt16(),
    baseSequence: r.readInt32(),
    recordsCount: r.readInt32(),
  };
}

/** The 61 header bytes of `h`; its attribute fields must agree with `attributes`. */
export function writeRecordBatchHeader(h: RecordBatchHeader): Uint8Array {
  const bits = attributesOf(h.attributes);
  if (
    bits.compression !== h.compression ||
    bits.timestampType !== h.timestampType ||
    bits.isTransactional !== h.isTransactional ||
    bits.isControl !== h.isControl
  ) {
    throw new ProtocolEncodeError(
      `record batch attributes ${h.attributes} disagree with the fields that name its bits`,
    );
  }
  const w = new Writer(RECORD_BATCH_HEADER_BYTES);
  w.writeInt64(h.baseOffset).writeInt32(h.batchLength).writeInt32(h.partitionLeaderEpoch);
  w.writeInt8(h.magic).writeUint32(h.crc).writeInt16(h.attributes).writeInt32(h.lastOffsetDelta);
  w.writeInt64(h.baseTimestamp).writeInt64(h.maxTimestamp).writeInt64(h.producerId);
  w.writeInt16(h.producerEpoch).writeInt32(h.baseSequence).writeInt32(h.recordsCount);
  return w.finish();
}

export interface FetchPartition extends Tagged {
  partition: number;
  /** v9+; -1 skips the leader-epoch fencing check. */
  currentLeaderEpoch?: number;
  fetchOffset: bigint;
  /** v12+. */
  lastFetchedEpoch?: number;
  /** v5+; followers only. */
  logStartOffset?: bigint;
  partitionMaxBytes: number;
}

export interface FetchTopic extends Tagged {
  /** v4-12. */
  topic?: string;
  /** v13+. */
  topicId?: string;
  partitions: FetchPartition[];
}

export interface ForgottenTopic extends Tagged {
  /** v7-12. */
  topic?: string;
  /** v13+. */
  topicId?: string;
  partitions: number[];
}

export interface FetchRequest extends Tagged {
  /** v4-14; FETCH_CONSUMER_REPLICA_ID for a consumer. */
  replicaId?: number;
  maxWaitMs: number;
  minBytes: number;
  maxBytes: number;
  /** 0 read uncommitted, 1 read committed (see IsolationLevel in list-offsets.ts). */
  isolationLevel: number;
  /** v7+. */
  sessionId?: number;
  /** v7+. */
  sessionEpoch?: number;
  topics: FetchTopic[];
  /** v7+. */
  forgottenTopicsData?: ForgottenTopic[];
  /** v11+. */
  rackId?: string;
}

export interface LeaderIdAndEpoch extends Tagged {
  leaderId: number;
  leaderEpoch: number;
}

export interface AbortedTransaction extends Tagged {
  producerId: bigint;
  firstOffset: bigint;
}

export interface FetchPartitionData extends Tagged {
  partitionIndex: number;
  errorCode: number;
  highWatermark: bigint;
  lastStableOffset: bigint;
  /** v5+. */
  logStartOffset?: bigint;
  /** v12+, when the broker sent it (with NOT_LEADER_OR_FOLLOWER or FENCED_LEADER_EPOCH). */
  currentLeader?: LeaderIdAndEpoch;
  abortedTransactions: AbortedTransaction[] | null;
  /** v11+. */
  preferredReadReplica?: number;
  records: FetchedRecords | null;
}

export interface FetchableTopicResponse extends Tagged {
  /** v4-12. */
  topic?: string;
  /** v13+. */
  topicId?: string;
  partitions: FetchPartitionData[];
}

export interface FetchNodeEndpoint extends Tagged {
  nodeId: number;
  host: string;
  port: number;
  rack: string | null;
}

export interface FetchResponse extends Tagged {
  throttleTimeMs: number;
  /** v7+. */
  errorCode?: number;
  /** v7+. */
  sessionId?: number;
  responses: FetchableTopicResponse[];
  /** v16+, when the broker sent it: the leaders named in CurrentLeader. */
  nodeEndpoints?: FetchNodeEndpoint[];
}

/** Name up to v12, id from v13. */
function writeTopicKey(e: Encoder, t: { topic?: string; topicId?: string }, field: string): void {
  if (e.version <= 12) e.string(t.topic ?? '');
  else e.absent(`${field}.topic`, t.topic, '');
  if (e.version >= 13) e.uuid(t.topicId ?? ZERO_UUID);
  else e.absent(`${field}.topicId`, t.topicId, ZERO_UUID);
}

function readTopicKey(d: Decoder): { topic?: string; topicId?: string } {
  return d.version <= 12 ? { topic: d.string('topic') } : { topicId: d.uuid() };
}

const topicBytes = (d: Decoder) => (d.version >= 13 ? 18 : d.flexible ? 3 : 6);

function writePartition(e: Encoder, p: FetchPartition): void {
  const v = e.version;
  e.int32(p.partition);
  if (v >= 9) e.int32(p.currentLeaderEpoch ?? -1);
  else e.absent('topics[].partitions[].currentLeaderEpoch', p.currentLeaderEpoch, -1);
  e.int64(p.fetchOffset);
  if (v >= 12) e.int32(p.lastFetchedEpoch ?? -1);
  else e.absent('topics[].partitions[].lastFetchedEpoch', p.lastFetchedEpoch, -1);
  if (v >= 5) e.int64(p.logStartOffset ?? -1n);
  else e.absent('topics[].partitions[].logStartOffset', p.logStartOffset, -1n);
  e.int32(p.partitionMaxBytes);
  e.tags(p.unknownTaggedFields);
}

function readPartition(d: Decoder): FetchPartition {
  const v = d.version;
  return defined({
    partition: d.int32(),
    currentLeaderEpoch: v >= 9 ? d.int32() : undefined,
    fetchOffset: d.int64(),
    lastFetchedEpoch: v >= 12 ? d.int32() : undefined,
    logStartOffset: v >= 5 ? d.int64() : undefined,
    partitionMaxBytes: d.int32(),
    unknownTaggedFields: d.tags(),
  });
}

function writeTopic(e: Encoder, t: FetchTopic): void {
  writeTopicKey(e, t, 'topics[]');
  e.array(t.partitions, writePartition);
  e.tags(t.unknownTaggedFields);
}

function readTopic(d: Decoder): FetchTopic {
  return defined({
    ...readTopicKey(d),
    partitions: d.array(readPartition, 16, 'partitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writeForgotten(e: Encoder, t: ForgottenTopic): void {
  writeTopicKey(e, t, 'forgottenTopicsData[]');
  e.int32Array(t.partitions);
  e.tags(t.unknownTaggedFields);
}

function readForgotten(d: Decoder): ForgottenTopic {
  return defined({
    ...readTopicKey(d),
    partitions: d.int32Array('partitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writeRecords(e: Encoder, records: FetchedRecords | null): void {
  if (records === null) {
    e.nullableBytes(null);
    return;
  }
  const { sizeInBytes, firstBatch } = records;
  if (!Number.isInteger(sizeInBytes) || sizeInBytes < 0) {
    throw new ProtocolEncodeError(`records size ${sizeInBytes} is not a byte count`);
  }
  const bytes = new Uint8Array(sizeInBytes);
  if (firstBatch) {
    if (sizeInBytes < RECORD_BATCH_HEADER_BYTES || firstBatch.magic !== 2) {
      throw new ProtocolEncodeError(
        `a first batch needs magic 2 and at least ${RECORD_BATCH_HEADER_BYTES} bytes of records, not ${sizeInBytes}`,
      );
    }
    bytes.set(writeRecordBatchHeader(firstBatch));
  }
  e.nullableBytes(bytes);
}

function readRecords(d: Decoder): FetchedRecords | null {
  const bytes = d.nullableBytes('records');
  if (bytes === null) return null;
  return { sizeInBytes: bytes.length, firstBatch: readRecordBatchHeader(bytes) };
}

function writeLeader(e: Encoder, l: LeaderIdAndEpoch): void {
  e.int32(l.leaderId).int32(l.leaderEpoch);
  e.tags(l.unknownTaggedFields);
}

function readLeader(d: Decoder): LeaderIdAndEpoch {
  return defined({ leaderId: d.int32(), leaderEpoch: d.int32(), unknownTaggedFields: d.tags() });
}

function writePartitionData(e: Encoder, p: FetchPartitionData): void {
  const v = e.version;
  e.int32(p.partitionIndex).int16(p.errorCode).int64(p.highWatermark).int64(p.lastStableOffset);
  if (v >= 5) e.int64(p.logStartOffset ?? -1n);
  else e.absent('responses[].partitions[].logStartOffset', p.logStartOffset, -1n);
  e.nullableArray(p.abortedTransactions, (e, a) =>
    e.int64(a.producerId).int64(a.firstOffset).tags(a.unknownTaggedFields),
  );
  if (v >= 11) e.int32(p.preferredReadReplica ?? -1);
  else e.absent('responses[].partitions[].preferredReadReplica', p.preferredReadReplica, -1);
  writeRecords(e, p.records);
  const known: TaggedField[] = [];
  const leader = p.currentLeader;
  if (leader !== undefined) {
    if (v < 12) throw new UnsupportedFieldVersionError('responses[].partitions[].currentLeader', v);
    known.push(e.tagged(TAG_CURRENT_LEADER, (t) => writeLeader(t, leader)));
  }
  e.tags(p.unknownTaggedFields, known);
}

function readPartitionData(d: Decoder): FetchPartitionData {
  const v = d.version;
  const partitionIndex = d.int32();
  const errorCode = d.int16();
  const highWatermark = d.int64();
  const lastStableOffset = d.int64();
  const logStartOffset = v >= 5 ? d.int64() : undefined;
  const abortedTransactions = d.nullableArray(
    (d) => defined({ producerId: d.int64(), firstOffset: d.int64(), unknownTaggedFields: d.tags() }),
    16,
    'abortedTransactions',
  );
  const preferredReadReplica = v >= 11 ? d.int32() : undefined;
  const records = readRecords(d);
  let currentLeader: LeaderIdAndEpoch | undefined;
  const unknownTaggedFields = d.tags((tag, reader) => {
    if (tag !== TAG_CURRENT_LEADER) return false;
    currentLeader = readLeader(d.sub(reader));
    return true;
  });
  return defined({
    partitionIndex,
    errorCode,
    highWatermark,
    lastStableOffset,
    logStartOffset,
    currentLeader,
    abortedTransactions,
    preferredReadReplica,
    records,
    unknownTaggedFields,
  });
}

function writeTopicResponse(e: Encoder, t: FetchableTopicResponse): void {
  writeTopicKey(e, t, 'responses[]');
  e.array(t.partitions, writePartitionData);
  e.tags(t.unknownTaggedFields);
}

function readTopicResponse(d: Decoder): FetchableTopicResponse {
  return defined({
    ...readTopicKey(d),
    partitions: d.array(readPartitionData, 30, 'partitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writeNodeEndpoint(e: Encoder, n: FetchNodeEndpoint): void {
  e.int32(n.nodeId).string(n.host).int32(n.port).nullableString(n.rack);
  e.tags(n.unknownTaggedFields);
}

function readNodeEndpoint(d: Decoder): FetchNodeEndpoint {
  return defined({
    nodeId: d.int32(),
    host: d.string('host'),
    port: d.int32(),
    rack: d.nullableString('rack'),
    unknownTaggedFields: d.tags(),
  });
}

export const Fetch = defineApi<FetchRequest, FetchResponse>({
  apiKey: 1,
  name: 'Fetch',
  minVersion: 4,
  maxVersion: 18,
  flexibleFrom: 12,

  writeRequest(e, req) {
    const v = e.version;
    if (v <= 14) e.int32(req.replicaId ?? FETCH_CONSUMER_REPLICA_ID);
    else e.absent('replicaId', req.replicaId, FETCH_CONSUMER_REPLICA_ID);
    e.int32(req.maxWaitMs).int32(req.minBytes).int32(req.maxBytes).int8(req.isolationLevel);
    if (v >= 7) e.int32(req.sessionId ?? 0).int32(req.sessionEpoch ?? -1);
    else {
      e.absent('sessionId', req.sessionId, 0);
      e.absent('sessionEpoch', req.sessionEpoch, -1);
    }
    e.array(req.topics, writeTopic);
    if (v >= 7) e.array(req.forgottenTopicsData ?? [], writeForgotten);
    else e.absent('forgottenTopicsData', req.forgottenTopicsData, []);
    if (v >= 11) e.string(req.rackId ?? '');
    else e.absent('rackId', req.rackId, '');
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    const v = d.version;
    return defined({
      replicaId: v <= 14 ? d.int32() : undefined,
      maxWaitMs: d.int32(),
      minBytes: d.int32(),
      maxBytes: d.int32(),
      isolationLevel: d.int8(),
      sessionId: v >= 7 ? d.int32() : undefined,
      sessionEpoch: v >= 7 ? d.int32() : undefined,
      topics: d.array(readTopic, topicBytes(d), 'topics'),
      forgottenTopicsData: v >= 7 ? d.array(readForgotten, topicBytes(d), 'forgottenTopicsData') : undefined,
      rackId: v >= 11 ? d.string('rackId') : undefined,
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    const v = e.version;
    e.int32(res.throttleTimeMs);
    if (v >= 7) e.int16(res.errorCode ?? ErrorCode.NONE).int32(res.sessionId ?? 0);
    else {
      e.absent('errorCode', res.errorCode, 0);
      e.absent('sessionId', res.sessionId, 0);
    }
    e.array(res.responses, writeTopicResponse);
    const known: TaggedField[] = [];
    const endpoints = res.nodeEndpoints;
    if (endpoints !== undefined) {
      if (v < 16) e.absent('nodeEndpoints', endpoints, []);
      else known.push(e.tagged(TAG_NODE_ENDPOINTS, (t) => t.array(endpoints, writeNodeEndpoint)));
    }
    e.tags(res.unknownTaggedFields, known);
  },

  readResponse(d) {
    const v = d.version;
    const throttleTimeMs = d.int32();
    const errorCode = v >= 7 ? d.int16() : undefined;
    const sessionId = v >= 7 ? d.int32() : undefined;
    const responses = d.array(readTopicResponse, topicBytes(d), 'responses');
    let nodeEndpoints: FetchNodeEndpoint[] | undefined;
    const unknownTaggedFields = d.tags((tag, reader) => {
      if (tag !== TAG_NODE_ENDPOINTS || v < 16) return false;
      nodeEndpoints = d.sub(reader).array(readNodeEndpoint, 8);
      return true;
    });
    return defined({ throttleTimeMs, errorCode, sessionId, responses, nodeEndpoints, unknownTaggedFields });
  },
});
