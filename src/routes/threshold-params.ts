/**
 * The verdict thresholds a caller may set, shared by /groups/{groupId}/health, /metrics and the
 * listing's verdict filter: a module of their own, so the listing does not load the health route.
 */

import { z } from '@hono/zod-openapi';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../groups/health/verdicts.js';
import { expect } from '../openapi/validation.js';

export const SECONDS_RULE = 'a whole number of seconds from 0 to 31536000';
export const LAG_RULE = 'a whole number of records from 0 to 9007199254740991';

export function wholeNumber(
  rule: string,
  max: number,
  description: string,
  example: number,
  /** What an absent value means; none for a filter that is off when absent. */
  fallback?: number,
) {
  return z
    .string()
    .regex(/^\d{1,16}$/, expect(rule))
    .transform(Number)
    .refine((n) => n <= max, expect(rule))
    .optional()
    .openapi({
      type: 'integer',
      format: 'int64',
      minimum: 0,
      maximum: max,
      ...(fallback !== undefined && { default: fallback }),
      description: fallback === undefined ? description : `${description} (default ${fallback})`,
      example,
    });
}

/** The verdict thresholds, shared by /groups/{groupId}/health and /metrics. */
export const ThresholdParams = {
  maxLag: wholeNumber(
    LAG_RULE,
    Number.MAX_SAFE_INTEGER,
    'Records behind above which a partition is LAGGING',
    500,
    DEFAULT_THRESHOLDS.maxLag,
  ).openapi({ param: { name: 'maxLag', in: 'query' } }),
  maxTimeLagSeconds: wholeNumber(
    SECONDS_RULE,
    31_536_000,
    'Seconds behind (lower bound of the time lag) above which a partition is LAGGING',
    30,
    DEFAULT_THRESHOLDS.maxTimeLagSeconds,
  ).openapi({ param: { name: 'maxTimeLagSeconds', in: 'query' } }),
  idleAfterSeconds: wholeNumber(
    SECONDS_RULE,
    31_536_000,
    'A partition with nothing to consume whose newest record is older than this is IDLE',
    600,
    DEFAULT_THRESHOLDS.idleAfterSeconds,
  ).openapi({ param: { name: 'idleAfterSeconds', in: 'query' } }),
};

export function thresholdsOf(query: {
  maxLag?: number | undefined;
  maxTimeLagSeconds?: number | undefined;
  idleAfterSeconds?: number | undefined;
}): Thresholds {
  return {
    maxLag: query.maxLag ?? DEFAULT_THRESHOLDS.maxLag,
    maxTimeLagSeconds: query.maxTimeLagSeconds ?? DEFAULT_THRESHOLDS.maxTimeLagSeconds,
    idleAfterSeconds: query.idleAfterSeconds ?? DEFAULT_THRESHOLDS.idleAfterSeconds,
  };
}
