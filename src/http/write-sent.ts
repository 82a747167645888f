/**
 * A failed write's problem says whether the write was sent (`sent`), as its success answer does.
 * The error travels from the write to the app's error mapping untouched (it may be an object that
 * other requests share, a coalesced describe's); the write gate (http/audit.ts) records on the
 * request's context what it saw, and the error mapping adds it to the problem.
 */

import type { Context } from 'hono';

declare module 'hono' {
  interface ContextVariableMap {
    writeSent: boolean;
  }
}

export function markWriteSent(c: Context, sent: boolean): void {
  c.set('writeSent', sent);
}

/** true or false on a request that ran a write; undefined on any other. */
export function writeSentOf(c: Context): boolean | undefined {
  return c.get('writeSent');
}
