/**
 * What the test broker offers of the group RPCs, recorded for the README's version table
 * (`npm run test:versions` collects .cache/api-versions-<version>.json of every version).
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { NO_DEADLINE } from '../../src/broker/deadline.js';
import { ApiKey } from '../../src/broker/protocol/index.js';
import { KafkaCluster } from '../../src/broker/transport/cluster.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { kafkaAtLeast, kafkaVersion } from '../support/kafka-version.js';

const GROUP_RPCS = [
  'ListGroups',
  'DescribeGroups',
  'ConsumerGroupDescribe',
  'ShareGroupDescribe',
  'StreamsGroupDescribe',
  'OffsetFetch',
  'FindCoordinator',
  'DescribeShareGroupOffsets',
] as const;

describe('the test broker’s group RPCs', () => {
  it('offers every RPC its version has, at the versions this product needs', async () => {
    const config = loadConfig({ KAFKA_BROKERS: inject('kafkaBrokers'), AUTH: 'none' });
    const cluster = new KafkaCluster(config.kafka, { logger: silentLogger });
    try {
      const first = config.kafka.brokers[0] as string;
      const at = first.lastIndexOf(':');
      const versions = await cluster
        .connection({ host: first.slice(0, at), port: Number(first.slice(at + 1)) })
        .apiVersions(NO_DEADLINE);
      const ranges = Object.fromEntries(
        GROUP_RPCS.map((name) => {
          const range = versions.get(ApiKey[name]);
          return [name, range ? `${range.min}-${range.max}` : null];
        }),
      );
      // ListGroups v4+ (states) and FindCoordinator v4+ (batches) on every supported version.
      expect(versions.get(ApiKey.ListGroups)?.max).toBeGreaterThanOrEqual(4);
      expect(versions.get(ApiKey.FindCoordinator)?.max).toBeGreaterThanOrEqual(4);
      expect(versions.has(ApiKey.ConsumerGroupDescribe)).toBe(true);
      if (kafkaAtLeast(4, 0)) expect(versions.get(ApiKey.ListGroups)?.max).toBeGreaterThanOrEqual(5);
      if (kafkaAtLeast(4, 2)) {
        expect(versions.has(ApiKey.ShareGroupDescribe)).toBe(true);
        expect(versions.has(ApiKey.StreamsGroupDescribe)).toBe(true);
      }
      mkdirSync('.cache', { recursive: true });
      writeFileSync(
        `.cache/api-versions-${kafkaVersion()}.json`,
        `${JSON.stringify({ version: kafkaVersion(), date: new Date().toISOString().slice(0, 10), ranges }, null, 2)}\n`,
      );
    } finally {
      await cluster.close();
    }
  });
});
