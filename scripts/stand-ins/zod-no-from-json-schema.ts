/** zod's `z.fromJSONSchema` (12 KB minified), in the bundles: this product never calls it. */

export function fromJSONSchema(): never {
  throw new Error("zod's fromJSONSchema is not in this bundle");
}
