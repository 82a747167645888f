/** Waiting with a bound, for the processes the tests start and stop. */

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves true if `p` settles within `ms`, false otherwise. */
export async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([p.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A poll's bound: how long, how often, and (for waitFor) what never came. */
export interface PollOptions {
  timeoutMs: number;
  /** Between the end of one check and the start of the next; at most 100. */
  intervalMs?: number;
}

/** Falsy: not yet. */
type Check<T> = () => T | undefined | null | false | Promise<T | undefined | null | false>;

/**
 * Checks `condition` until it returns a truthy value, which it resolves with, or until `timeoutMs`
 * has passed, when it resolves undefined. It checks at least once, and once more at the deadline.
 * What `condition` throws is thrown: a failed assertion inside it fails at once.
 */
export async function poll<T>(
  condition: Check<T>,
  { timeoutMs, intervalMs = 100 }: PollOptions,
): Promise<T | undefined> {
  if (intervalMs > 100) throw new Error(`poll interval ${intervalMs} ms: at most 100`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    await sleep(Math.min(intervalMs, left));
  }
}

/**
 * Like poll, but at the deadline throws an Error naming `what` (a function is called then, so it can
 * tell the last state seen): "timed out after N ms waiting for <what>".
 */
export async function waitFor<T>(
  condition: Check<T>,
  options: PollOptions & { what: string | (() => string | Promise<string>) },
): Promise<T> {
  const value = await poll(condition, options);
  if (value) return value;
  const { what } = options;
  let named: string;
  try {
    named = typeof what === 'function' ? await what() : what;
  } catch (err) {
    named = `(what failed: ${err instanceof Error ? err.message : String(err)})`;
  }
  throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${named}`);
}
