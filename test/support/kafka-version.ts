/**
 * What the test broker (`inject('kafkaVersion')`) can do, for tests that run against every
 * supported Kafka version.
 *
 * Share groups (KIP-932) and streams groups (KIP-1071) need 4.1+ (the fixtures turn them on there;
 * 3.x has neither). Classic and consumer groups exist on every version the fixtures start.
 * A broker given by KAFKA_BROKERS without KAFKA_VERSION ('external') is taken to have them all.
 */

import { inject } from 'vitest';
import type { GroupType } from '../../src/groups/model.js';
import { versionAtLeast } from '../broker-harness/fetch.js';

/** The test broker's version, or 'external'. */
export function kafkaVersion(): string {
  return inject('kafkaVersion');
}

/** True when the broker's version is at least `major.minor`, or is not a version ('external'). */
export function kafkaAtLeast(major: number, minor: number): boolean {
  const version = kafkaVersion();
  return !/^\d+\.\d+/.test(version) || versionAtLeast(version, major, minor);
}

/** True when the test broker has groups of `type`. */
export function hasGroupType(type: GroupType): boolean {
  switch (type) {
    case 'classic':
    case 'consumer':
      return true;
    case 'share':
    case 'streams':
      return kafkaAtLeast(4, 1);
  }
}

/**
 * True when the test broker creates a share group by its offsets' reset (AlterShareGroupOffsets on
 * a group it does not know, KAFKA-19662): Kafka 4.2 and later. Kafka 4.1 has share groups but
 * answers UNKNOWN_SERVER_ERROR there.
 */
export function createsShareGroups(): boolean {
  return kafkaAtLeast(4, 2);
}
