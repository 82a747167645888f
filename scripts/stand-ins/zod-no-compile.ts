/**
 * zod's `z.compile` (a code-generating parser, some 29 KB minified), in the bundles: this product
 * never calls it, every parse goes through the schemas' own parsers. The names stay; a call says
 * what is missing.
 */

export const INVALID = Symbol.for('zod.compile.invalid');
export class ZodCompileAsyncError extends Error {}
export class ZodCompileUnsupportedError extends Error {}
const absent = (): never => {
  throw new Error("zod's compile is not in this bundle");
};

export { absent as compile, absent as compileFn, absent as withParser };
