/**
 * kafkajs's table of Kafka's error codes (src/protocol/error.js) as the bundles see it. Of the
 * kafkajs files the bundles keep, only its SASL answers read it (bundle.ts): whether a code is an
 * error, and the error to throw for it. Both come from this project's own table of Kafka's codes,
 * which is newer and already in every bundle, so kafkajs's copy (12 KB minified) is not.
 */

import { KafkaJSProtocolError } from 'kafkajs/src/errors.js';
import { ErrorCode, KAFKA_ERRORS, kafkaError } from '../../protocol/errors.js';

interface ErrorCodeEntry {
  type: string;
  code: number;
  retriable: boolean;
  message: string;
}

const entry = (code: number): ErrorCodeEntry => {
  const known = kafkaError(code);
  return { type: known.name, code, retriable: known.retriable, message: known.message ?? known.name };
};

export const errorCodes: ErrorCodeEntry[] = [...KAFKA_ERRORS.keys()].map(entry);

export const failure = (code: number): boolean => code !== 0;

export const createErrorFromCode = (code: number): Error => new KafkaJSProtocolError(entry(code));

export const failIfVersionNotSupported = (code: number): void => {
  if (code === ErrorCode.UNSUPPORTED_VERSION) throw createErrorFromCode(code);
};
