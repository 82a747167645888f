/**
 * The MCP SDK's JSON Schema validator (ajv), in the bundles. The SDK's server asks it only to
 * check what a client answers to an elicitation, which this server never requests: tool arguments
 * are checked by each tool's route, with the route's own schemas. So ajv and its formats (some
 * 140 KB minified) stay out, and a validator that refuses stands in, should the SDK ever ask.
 */

export class AjvJsonSchemaValidator {
  getValidator(): (input: unknown) => { valid: false; data: undefined; errorMessage: string } {
    return () => ({
      valid: false,
      data: undefined,
      errorMessage: 'JSON Schema validation is not part of this build',
    });
  }
}
