/**
 * Reading one variable: trimmed text (empty is unset), bounded integers, booleans, one of a list.
 * A bad value throws ConfigError naming the variable, never echoing a secret's value.
 */

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable}: ${reason}`);
    this.name = 'ConfigError';
  }
}

export function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `expected an integer from ${min} to ${max}, received '${raw}'`);
  }
  return Number(raw);
}

export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (lower === 'true' || lower === '1' || lower === 'yes') return true;
  if (lower === 'false' || lower === '0' || lower === 'no') return false;
  throw new ConfigError(name, `expected true or false, received '${raw}'`);
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T;
export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[]): T | undefined;
export function oneOf<T extends string>(
  env: Env,
  name: string,
  allowed: readonly T[],
  fallback?: T,
): T | undefined {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (!(allowed as readonly string[]).includes(lower)) {
    throw new ConfigError(name, `expected one of ${allowed.join(', ')}, received '${raw}'`);
  }
  return lower as T;
}
