/**
 * A tool call's arguments against the tool's input schema, before any request is made of its
 * route: an argument the tool does not take, one missing, or one of another JSON type than the
 * schema's. Path and query arguments become text on the way to the route, so a number sent for a
 * string (or a string for an integer) would otherwise pass as its spelling; each such misfit is
 * the caller's, answered as invalid params (-32602) naming the argument. What the value itself
 * must be (an enum member, a range) stays the route's to say.
 */

import type { InvalidParameter } from '../../openapi/problems.js';
import type { JsonSchema, ToolRoute } from './schemas.js';

/** The JSON type of a value, in JSON Schema's words: 'string', 'number', 'array', 'null'. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

function fits(value: unknown, schema: JsonSchema | undefined): boolean {
  switch (schema?.type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return jsonType(value) === 'object';
    case 'array':
      return Array.isArray(value) && value.every((v) => fits(v, schema.items as JsonSchema | undefined));
    default:
      // No single type (anyOf, oneOf): the route's own validation says.
      return true;
  }
}

function expected(schema: JsonSchema | undefined): string {
  const items = schema?.items as JsonSchema | undefined;
  if (schema?.type === 'array' && typeof items?.type === 'string') return `an array of ${items.type}s`;
  return String(schema?.type);
}

const where = (name: string) => `params.arguments.${name}`;

/** Every misfit of `args` to the tool of `route`; none when the route may be asked. */
export function argumentErrors(route: ToolRoute, args: Record<string, unknown>): InvalidParameter[] {
  const errors: InvalidParameter[] = [];
  const known = [...route.places.keys()].join(', ') || 'none';
  const properties = (route.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (route.inputSchema.required ?? []) as string[];
  for (const name of Object.keys(args)) {
    if (!route.places.has(name)) {
      errors.push({
        in: 'body',
        name: where(name),
        expected: `one of the tool's arguments: ${known}`,
        received: jsonType(args[name]),
        message: `is not an argument of ${route.spec.name}, which takes ${known}`,
      });
    }
  }
  for (const [name, place] of route.places) {
    const value = args[name];
    const schema = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (value === undefined) {
      if (required.includes(name)) {
        errors.push({
          in: 'body',
          name: where(name),
          expected: expected(schema),
          received: null,
          message: `is required by ${route.spec.name}`,
        });
      }
    } else if (!fits(value, schema)) {
      errors.push({
        in: 'body',
        name: where(name),
        expected: expected(schema),
        received: jsonType(value),
        message: `expected ${expected(schema)}, received ${jsonType(value)}`,
      });
    } else if (place !== 'query' && place !== 'body' && (value === '' || value === '.' || value === '..')) {
      // Such a segment makes another path: /groups/ is no group, /groups/./offsets the group 'offsets'.
      const expected = "a non-empty string other than '.' or '..'";
      errors.push({
        in: 'body',
        name: where(name),
        expected,
        received: value,
        message: `expected ${expected}`,
      });
    }
  }
  return errors;
}
