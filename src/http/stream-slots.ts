/**
 * The cap on open event streams per caller, in this process: a stream holds a slot from its first
 * byte to its last, and one beyond the cap is refused before it starts (429 too-many-streams).
 */

import type { Context } from 'hono';
import { isAnonymous } from './middleware.js';

export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(readonly perCaller: number) {}

  /** A slot for `caller`, released by the function returned (once); undefined when at the cap. */
  take(caller: string): (() => void) | undefined {
    const held = this.open.get(caller) ?? 0;
    if (held >= this.perCaller) return undefined;
    this.open.set(caller, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.open.get(caller) ?? 1) - 1;
      if (now <= 0) this.open.delete(caller);
      else this.open.set(caller, now);
    };
  }

  held(caller: string): number {
    return this.open.get(caller) ?? 0;
  }
}

/** Who a stream counts against: the principal, or the client address when the server runs open. */
export function streamCaller(c: Context, clientAddress?: (c: Context) => string | undefined): string {
  const principal = c.get('principal');
  if (principal && !isAnonymous(c)) return principal.id;
  return `address:${clientAddress?.(c) ?? 'unknown'}`;
}
