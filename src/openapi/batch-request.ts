/**
 * The batch describe's request body: validated by a route a start serves, so apart from the
 * answers' models (schemas.ts), which only the document builds.
 */

import { z } from '@hono/zod-openapi';
import { GROUP_TYPES } from '../vocabulary.js';
import { GROUP_ID_RULE, MAX_GROUP_ID_BYTES } from './shapes/scalars.js';
import { expect } from './validation.js';

export const MAX_BATCH_GROUPS = 100;

export const BatchDescribeRequestSchema = z
  .strictObject({
    groupIds: z
      .array(
        z
          .string(expect(GROUP_ID_RULE))
          .min(1, expect(GROUP_ID_RULE))
          .refine(
            (id) => new TextEncoder().encode(id).byteLength <= MAX_GROUP_ID_BYTES,
            expect(GROUP_ID_RULE),
          ),
        expect(`an array of 1 to ${MAX_BATCH_GROUPS} group ids`),
      )
      .min(1, expect(`an array of 1 to ${MAX_BATCH_GROUPS} group ids`))
      .max(MAX_BATCH_GROUPS, expect(`an array of 1 to ${MAX_BATCH_GROUPS} group ids`))
      .openapi({ description: `1 to ${MAX_BATCH_GROUPS} group ids; duplicates are answered once` }),
    type: z
      .enum(GROUP_TYPES, expect(`one of ${GROUP_TYPES.join(', ')}`))
      .optional()
      .openapi({ description: 'Assert every group has this type (mismatches are per-group 409 problems)' }),
  })
  .openapi('BatchDescribeRequest', {
    example: { groupIds: ['demo-classic', 'demo-share', 'no-such-group'] },
  });
