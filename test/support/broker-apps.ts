/**
 * Apps on the test broker, each wired from its own environment as the Node runtime wires it, for a
 * test that compares deployments (grants, signing keys, clusters): unthrottled unless the
 * environment says otherwise, and every service they open closed at once.
 */

import { inject } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { securityFrom } from '../../src/http/security.js';
import { tokenSigner } from '../../src/tokens/signed.js';
import { clustersOf, createService, type Service } from '../../src/wiring.js';

export interface BrokerApps {
  /** An app from `env`, over KAFKA_BROKERS (the test broker) and RATE_LIMIT_PER_MINUTE=0. */
  app(env: Record<string, string>): ReturnType<typeof createApp>;
  /** Closes the connections of every app made. */
  close(): Promise<void>;
}

export function brokerApps(): BrokerApps {
  const services: Service[] = [];
  return {
    app(env) {
      const config = loadConfig({
        KAFKA_BROKERS: inject('kafkaBrokers'),
        RATE_LIMIT_PER_MINUTE: '0',
        ...env,
      });
      const service = createService(config);
      services.push(service);
      return createApp({
        service: service.groups,
        clusters: clustersOf(service),
        security: securityFrom(config),
        tokens: tokenSigner(config.tokenKeys),
        metricsNames: config.metricsNames,
      });
    },
    close: async () => {
      await Promise.all(services.map((s) => s.close()));
    },
  };
}
