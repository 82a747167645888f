/**
 * Query parameters that take several values, and describe's own: apart from the listing's query
 * (listing-query.ts), which only the listing's first request builds.
 */

import { z } from '@hono/zod-openapi';

/**
 * A query parameter that takes several values, repeated (`?type=a&type=b`) or comma-separated
 * (`?type=a,b`), matched case-insensitively against `allowed`.
 */
export function listParam<T extends string>(
  allowed: readonly T[],
  canonical: (value: string) => T | undefined,
  description: string,
) {
  const accepted = `one or more of ${allowed.join(', ')} (repeated or comma-separated, any case)`;
  return z
    .union([z.string(), z.array(z.string())])
    .transform((raw, ctx) => {
      const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).map((v) => v.trim());
      const out: T[] = [];
      for (const value of values) {
        const known = canonical(value);
        if (known === undefined) {
          ctx.addIssue({ code: 'custom', message: accepted });
          return z.NEVER;
        }
        if (!out.includes(known)) out.push(known);
      }
      return out;
    })
    .optional()
    .openapi({
      description: `${description}: ${accepted}`,
      type: 'array',
      items: { type: 'string', enum: [...allowed] },
    });
}

export const DESCRIBE_INCLUDES = ['topology'] as const;
