/** The codecs this product has, by API key: what a stand-in broker or a frame decoder looks up. */

import type { AnyApiMessage } from './api.js';
import { ApiVersions } from './messages/api-versions.js';
import { DescribeGroups } from './messages/describe-groups.js';
import { FindCoordinator } from './messages/find-coordinator.js';
import { ListGroups } from './messages/list-groups.js';
import { Metadata } from './messages/metadata.js';

export const API_MESSAGES: ReadonlyMap<number, AnyApiMessage> = new Map(
  [ApiVersions, Metadata, FindCoordinator, ListGroups, DescribeGroups].map((api): [number, AnyApiMessage] => [
    api.apiKey,
    api,
  ]),
);
