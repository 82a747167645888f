/**
 * kafkajs logs through its own logger; this routes its records into ours. Its records carry
 * broker addresses and error messages, not SASL secrets (those live in the connection only).
 */

import type { logCreator } from 'kafkajs';
// Not `logLevel` from 'kafkajs': its index pulls in the whole client (producer, consumer, admin)
// and with it a third of every bundle.
import { createLogger as createKafkajsLogger, LEVELS as logLevel } from 'kafkajs/src/loggers/index.js';
import type { Logger } from '../../../logger.js';

export function kafkajsLogger(logger: Logger): unknown {
  const creator: logCreator =
    () =>
    ({ namespace, level, log }) => {
      const {
        message,
        timestamp: _timestamp,
        logger: _name,
        stack: _stack,
        ...fields
      } = log as Record<string, unknown>;
      const text = `kafkajs ${namespace}: ${String(message)}`;
      if (level === logLevel.ERROR) logger.warn(text, fields);
      else if (level === logLevel.WARN) logger.warn(text, fields);
      else logger.debug(text, fields);
    };
  // Connection errors are reported to callers as typed errors; kafkajs's own copy is debug noise.
  return createKafkajsLogger({ level: logLevel.WARN, logCreator: creator });
}
