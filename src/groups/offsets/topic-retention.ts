/**
 * Topics' retention (retention.ms, retention.bytes, cleanup.policy), read with one DescribeConfigs
 * on TOPIC resources for all of them, from any broker: what the retention runway needs. A topic
 * whose configs cannot be read (not authorised, deleted) is left out, so its runway says no-config.
 */

import type { CallOptions } from '../../broker/deadline.js';
import { BrokerError } from '../../broker/errors.js';
import { ErrorCode } from '../../broker/protocol/errors.js';
import { ConfigResourceType, DescribeConfigs } from '../../broker/protocol/messages/describe-configs.js';
import type { KafkaCluster } from '../../broker/transport/cluster.js';
import type { Retention } from '../health/forecast.js';

const KEYS = ['retention.ms', 'retention.bytes', 'cleanup.policy'];

/** Kafka's -1 (no limit) and anything unreadable as null. */
function limit(value: string | null | undefined): number | null {
  if (value === null || value === undefined || !/^\d{1,16}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

export async function topicRetention(
  cluster: KafkaCluster,
  topics: readonly string[],
  options: CallOptions,
): Promise<Map<string, Retention>> {
  const out = new Map<string, Retention>();
  if (topics.length === 0) return out;
  try {
    await cluster.anyBroker(async (connection) => {
      const { response } = await connection.send(
        DescribeConfigs,
        {
          resources: [...new Set(topics)].map((name) => ({
            resourceType: ConfigResourceType.Topic,
            resourceName: name,
            configurationKeys: KEYS,
          })),
          includeSynonyms: false,
        },
        undefined,
        options,
      );
      for (const r of response.results) {
        if (r.resourceType !== ConfigResourceType.Topic || r.errorCode !== ErrorCode.NONE) continue;
        const value = (name: string) => r.configs.find((c) => c.name === name)?.value;
        out.set(r.resourceName, {
          retentionMs: limit(value('retention.ms')),
          retentionBytes: limit(value('retention.bytes')),
          deletes: (value('cleanup.policy') ?? 'delete').split(',').some((p) => p.trim() === 'delete'),
        });
      }
    }, options);
  } catch (error) {
    // No retention is a forecast less, never a failed health answer.
    if (!(error instanceof BrokerError)) throw error;
  }
  return out;
}
