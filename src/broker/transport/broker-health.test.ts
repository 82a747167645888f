import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { BrokerTimeoutError, BrokerUnavailableError } from '../errors.js';
import { BrokerHealth, collapsingLogger } from './broker-health.js';

function clock() {
  let t = 1_000_000;
  return {
    now: () => t,
    advance(ms: number) {
      t += ms;
    },
  };
}

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('debug', (line) => lines.push(JSON.parse(line)));
  return { lines, logger };
}

describe('BrokerHealth', () => {
  it('avoids a broker that timed out for a while, then lets one probe through at a time', () => {
    const c = clock();
    const { logger } = capture();
    const health = new BrokerHealth({ logger, avoidMs: 5_000, now: c.now });
    health.failed('b1:9092', new BrokerTimeoutError('b1:9092', 'Metadata', 3000));
    expect(health.isAvoided('b1:9092')).toBe(true);
    expect(health.shouldSkip('b1:9092')).toBe(true);
    expect(health.order(['b1:9092', 'b2:9092'], (b) => b)).toEqual(['b2:9092', 'b1:9092']);
    c.advance(5_001);
    expect(health.isAvoided('b1:9092')).toBe(false);
    expect(health.shouldSkip('b1:9092'), 'the first caller probes').toBe(false);
    expect(health.shouldSkip('b1:9092'), 'others wait for the probe').toBe(true);
    health.succeeded('b1:9092');
    expect(health.shouldSkip('b1:9092')).toBe(false);
    expect(health.reason('b1:9092')).toBeUndefined();
  });

  it('logs the first failure, one line per interval with the count, and the recovery', () => {
    const c = clock();
    const { lines, logger } = capture();
    const health = new BrokerHealth({ logger, logIntervalMs: 30_000, now: c.now });
    const refused = new BrokerUnavailableError('b1:9092', 'cannot connect to b1:9092: ECONNREFUSED');
    for (let i = 0; i <= 600; i++) {
      health.failed('b1:9092', refused);
      c.advance(100); // 10 a second for a minute
    }
    health.succeeded('b1:9092');
    expect(lines.map((l) => l.message)).toEqual([
      'broker b1:9092 does not answer',
      'broker b1:9092 still does not answer',
      'broker b1:9092 still does not answer',
      'broker b1:9092 answers again',
    ]);
    expect(lines[1]).toMatchObject({ failures: 300, totalFailures: 301 });
    expect(lines[3]).toMatchObject({ level: 'info', failures: 601, downMs: 60_100 });
  });
});

describe('collapsingLogger', () => {
  it('passes the first line of a kind per broker and counts the repeats into the next one', () => {
    const c = clock();
    const { lines, logger } = capture();
    const log = collapsingLogger(logger, 10_000, c.now);
    for (let i = 0; i < 50; i++) {
      log.error('kafkajs Connection: Connection error: connect ECONNREFUSED 127.0.0.1:9092', {
        broker: 'a:1',
      });
      log.warn(`kafkajs RequestQueue: Response without match ${i}`, { broker: 'a:1' });
      log.error('kafkajs Connection: Connection error: connect ECONNREFUSED 127.0.0.1:9093', {
        broker: 'b:1',
      });
      c.advance(100);
    }
    c.advance(10_000);
    log.error('kafkajs Connection: Connection error: connect ECONNREFUSED 127.0.0.1:9092', { broker: 'a:1' });
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatchObject({ broker: 'a:1', repeated: 49 });
  });
});
