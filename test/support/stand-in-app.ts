/**
 * The application over a stand-in group service, for tests of what the HTTP layer answers before
 * (or instead of) any broker call. Every service method the test does not give rejects, so a test
 * that reaches the broker by mistake sees it.
 */

import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { GroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';

export type StandInMethods = Partial<Record<keyof GroupService, (...args: never[]) => unknown>>;

/** A GroupService whose given methods answer and whose others reject. */
export function standInService(methods: StandInMethods = {}): GroupService {
  return new Proxy({} as GroupService, {
    get: (_target, name) => {
      if (name === 'then') return undefined;
      return (
        (methods as Record<string | symbol, unknown>)[name] ??
        (() => Promise.reject(new Error('stand-in service')))
      );
    },
  });
}

/** The app over `standInService(methods)`: open and unthrottled unless `env` says otherwise. */
export function standInApp(methods: StandInMethods = {}, env: Record<string, string> = {}) {
  return createApp({
    service: standInService(methods),
    security: securityFrom(
      loadConfig({ KAFKA_BROKERS: '127.0.0.1:9', AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0', ...env }),
    ),
  });
}
