/** The codecs this product has, by API key: what a stand-in broker or a frame decoder looks up. */

import type { AnyApiMessage } from './api.js';
import { AlterShareGroupOffsets } from './messages/alter-share-group-offsets.js';
import { ApiVersions } from './messages/api-versions.js';
import { ConsumerGroupDescribe } from './messages/consumer-group-describe.js';
import { DeleteGroups } from './messages/delete-groups.js';
import { DeleteShareGroupOffsets } from './messages/delete-share-group-offsets.js';
import { DescribeConfigs } from './messages/describe-configs.js';
import { DescribeGroups } from './messages/describe-groups.js';
import { DescribeShareGroupOffsets } from './messages/describe-share-group-offsets.js';
import { Fetch } from './messages/fetch.js';
import { FindCoordinator } from './messages/find-coordinator.js';
import { IncrementalAlterConfigs } from './messages/incremental-alter-configs.js';
import { LeaveGroup } from './messages/leave-group.js';
import { ListGroups } from './messages/list-groups.js';
import { ListOffsets } from './messages/list-offsets.js';
import { Metadata } from './messages/metadata.js';
import { OffsetCommit } from './messages/offset-commit.js';
import { OffsetDelete } from './messages/offset-delete.js';
import { OffsetFetch } from './messages/offset-fetch.js';
import { ShareGroupDescribe } from './messages/share-group-describe.js';
import { StreamsGroupDescribe } from './messages/streams-group-describe.js';

export const API_MESSAGES: ReadonlyMap<number, AnyApiMessage> = new Map(
  [
    ApiVersions,
    Metadata,
    FindCoordinator,
    ListGroups,
    DescribeGroups,
    ConsumerGroupDescribe,
    ShareGroupDescribe,
    StreamsGroupDescribe,
    OffsetFetch,
    OffsetCommit,
    ListOffsets,
    DescribeShareGroupOffsets,
    Fetch,
    DeleteShareGroupOffsets,
    AlterShareGroupOffsets,
    LeaveGroup,
    DeleteGroups,
    OffsetDelete,
    DescribeConfigs,
    IncrementalAlterConfigs,
  ].map((api): [number, AnyApiMessage] => [api.apiKey, api]),
);
