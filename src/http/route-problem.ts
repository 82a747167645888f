/**
 * A problem a route answers by its own judgement (a refused token, an Accept it cannot serve),
 * thrown rather than returned: the typed handlers answer only what their definitions declare, and
 * `app.onError` turns this into the problem+json answer (routes/errors.ts), headers included.
 */

import type { ProblemExtensions, ProblemSlug } from '../openapi/problems.js';

export class RouteProblem extends Error {
  constructor(
    readonly slug: ProblemSlug,
    detail: string,
    readonly extensions: ProblemExtensions = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'RouteProblem';
  }
}
