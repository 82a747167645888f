/**
 * Kafka's integer widths and the group id rule: what request validation needs at start, apart
 * from the answers' shapes (primitives.ts), which only the document builds.
 */

import { z } from '@hono/zod-openapi';

/** A Kafka int64 (offsets, lag): `format: int64` so that generated clients use 64-bit integers. */
export const Int64 = () => z.number().int().openapi({ format: 'int64' });
/** A Kafka int32 (epochs, partitions, ports). */
export const Int32 = () => z.number().int().openapi({ format: 'int32' });

/** Kafka strings carry an int16 length: the longest group id a broker can hold, in UTF-8 bytes. */
export const MAX_GROUP_ID_BYTES = 32_767;
export const GROUP_ID_RULE = `a group id of 1 to ${MAX_GROUP_ID_BYTES} UTF-8 bytes`;
