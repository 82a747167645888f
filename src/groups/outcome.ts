/**
 * The result of one item of a batch (a group, a partition): its value, or why there is none.
 * Batch operations answer with a Map from each item's key to its Outcome, so one item's failure
 * never fails the others, and `ok` says which it is without guessing from the fields.
 */
export type Outcome<T, E = Error> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): Outcome<T, never> {
  return { ok: true, value };
}

export function failed<E>(error: E): Outcome<never, E> {
  return { ok: false, error };
}
