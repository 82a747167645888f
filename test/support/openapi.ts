/**
 * Checks responses against the published OpenAPI document: the document itself must be valid
 * OpenAPI 3.1, and every response a test receives must match the schema its route declares for
 * that status and content type.
 */

import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
};

const pointer = (...segments: string[]) =>
  segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

export class OpenApiChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  private constructor(readonly document: Doc) {
    addFormats.default(this.ajv);
    this.ajv.addSchema(document as object, 'openapi.json');
  }

  /** Fetches /openapi.json through `fetcher`, checks it is valid OpenAPI 3.1, and returns a checker. */
  static async load(fetcher: (path: string) => Promise<Response>): Promise<OpenApiChecker> {
    const res = await fetcher('/openapi.json');
    expect(res.status).toBe(200);
    const document = (await res.json()) as Doc;
    const result = await new Validator().validate(
      document as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    return new OpenApiChecker(document);
  }

  /**
   * Asserts that `res` is documented for `method template` (e.g. 'get', '/groups/{groupId}') and that
   * its body matches; returns the parsed body.
   */
  async check(method: string, template: string, res: Response): Promise<unknown> {
    const operation = this.document.paths[template]?.[method];
    expect(operation, `${method} ${template} is in the document`).toBeDefined();
    const status = String(res.status);
    const response = operation?.responses[status];
    expect(response, `${method} ${template} documents status ${status}`).toBeDefined();
    const contentType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    expect(
      Object.keys(response?.content ?? {}),
      `${method} ${template} ${status} documents ${contentType}`,
    ).toContain(contentType);
    const body = await res.json();
    const ref = `openapi.json#/${pointer('paths', template, method, 'responses', status, 'content', contentType, 'schema')}`;
    const validate = this.ajv.getSchema(ref) ?? this.ajv.compile({ $ref: ref });
    const valid = validate(body);
    expect(validate.errors ?? [], `${method} ${template} ${status} body matches the document`).toEqual([]);
    expect(valid).toBe(true);
    return body;
  }
}
