/**
 * The answers of the routes a start registers, as the document shows them (start-docs.ts), kept
 * out of the start: an app registers those routes with the answers this module has loaded, none
 * before the document first needs them. The app the document is built from is made after
 * `START_DOCS.load()` (it is among LAZY_MODULES), so it registers them whole; the app serving
 * requests never reads a route's answers (they are the document's), so none are missing there.
 */

type StartDocs = typeof import('./start-docs.js');
type Responses = StartDocs['START_RESPONSES'];

let loaded: StartDocs | undefined;

export const START_DOCS = {
  async load(): Promise<StartDocs> {
    loaded ??= await import('./start-docs.js');
    return loaded;
  },
  /** The module once loaded, else undefined: what only the document needs. */
  loaded(): StartDocs | undefined {
    return loaded;
  },
};

/** The route's answers once loaded, else none; typed as the document has them either way. */
export function startResponses<K extends keyof Responses>(operationId: K): Responses[K] {
  return (loaded?.START_RESPONSES[operationId] ?? {}) as Responses[K];
}
