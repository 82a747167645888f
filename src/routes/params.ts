/** Parameters more than one route takes. */

import { z } from '@hono/zod-openapi';
import { GROUP_TYPES } from '../groups/model.js';
import { GROUP_ID_RULE, MAX_GROUP_ID_BYTES } from '../openapi/shapes/scalars.js';
import { expect } from '../openapi/validation.js';

const utf8 = new TextEncoder();

export const GroupIdParam = z
  .string()
  .min(1, expect(GROUP_ID_RULE))
  .refine((id) => utf8.encode(id).byteLength <= MAX_GROUP_ID_BYTES, expect(GROUP_ID_RULE))
  .openapi({
    param: { name: 'groupId', in: 'path' },
    description: 'The group id, percent-encoded: any id Kafka holds (spaces, slashes, unicode) round-trips',
    example: 'demo-classic',
  });

export const IsolationParam = z
  .enum(['read_uncommitted', 'read_committed'], expect('read_uncommitted or read_committed'))
  .optional()
  .openapi({
    param: { name: 'isolation', in: 'query' },
    description:
      'read_uncommitted (default): lag against the high watermark; read_committed: against the last stable offset, as a transactional consumer sees it',
    example: 'read_committed',
  });

/** `?type=`: the type a group must have; a group of another type answers 409. */
// A separate enum: annotating the shared GroupType schema would rewrite its description.
export const TypeAssertionParam = z
  .enum(GROUP_TYPES, expect(`one of ${GROUP_TYPES.join(', ')}`))
  .optional()
  .openapi({
    param: { name: 'type', in: 'query' },
    description: 'The type the group must have; another type answers 409',
    example: 'consumer',
  });

/** `?since=`: a snapshot an earlier answer signed (see http/since-token.ts); `of` names that answer. */
export const sinceParam = (of: string, example: string) =>
  z
    .string()
    .optional()
    .openapi({
      param: { name: 'since', in: 'query' },
      description: `The \`snapshot\` of ${of} (at most 24 h old)`,
      example,
    });
