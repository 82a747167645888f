/** The application wired to the test broker, as the Node runtime wires it, plus the document checker. */

import { inject } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { securityFrom } from '../../src/http/security.js';
import { clustersOf, createService, type Service } from '../../src/wiring.js';
import { OpenApiChecker } from './openapi.js';

export interface TestApp {
  app: ReturnType<typeof createApp>;
  service: Service;
  checker: OpenApiChecker;
  bootstrap: string;
  /** GET `path` and check the answer against the document entry `template`; returns status and body. */
  get<T = Record<string, unknown>>(
    path: string,
    template: string,
  ): Promise<{ status: number; body: T; headers: Headers }>;
  close(): Promise<void>;
}

export async function testApp(env: Record<string, string> = {}): Promise<TestApp> {
  const bootstrap = inject('kafkaBrokers');
  // Open and unthrottled unless the test says otherwise: these tests are about groups, and send
  // more requests at once than a rate limit lets through; the access tests set their own.
  const config = loadConfig({ KAFKA_BROKERS: bootstrap, AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0', ...env });
  const service = createService(config);
  const app = createApp({
    service: service.groups,
    clusters: clustersOf(service),
    security: securityFrom(config),
  });
  const checker = await OpenApiChecker.load(async (path) => app.request(path));
  return {
    app,
    service,
    checker,
    bootstrap,
    async get<T>(path: string, template: string) {
      const res = await app.request(path);
      const headers = res.headers;
      const status = res.status;
      const body = (await checker.check('get', template, res)) as T;
      return { status, body, headers };
    },
    close: () => service.close(),
  };
}
