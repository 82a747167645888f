import { describe, expect, it } from 'vitest';
import { ErrorCode, KAFKA_ERRORS, kafkaError } from './errors.js';

describe('Kafka error codes', () => {
  it('knows every code from -1 to 136 (Kafka 4.4) once', () => {
    expect(KAFKA_ERRORS.size).toBe(138);
    for (let code = -1; code <= 136; code++) expect(KAFKA_ERRORS.get(code)?.code).toBe(code);
    expect(new Set([...KAFKA_ERRORS.values()].map((e) => e.name)).size).toBe(138);
  });

  it('names the codes the group API meets, with Kafka retriable flags', () => {
    expect(kafkaError(0)).toMatchObject({ name: 'NONE', retriable: false, message: null, known: true });
    expect(kafkaError(14)).toMatchObject({ name: 'COORDINATOR_LOAD_IN_PROGRESS', retriable: true });
    expect(kafkaError(15)).toMatchObject({ name: 'COORDINATOR_NOT_AVAILABLE', retriable: true });
    expect(kafkaError(16)).toMatchObject({ name: 'NOT_COORDINATOR', retriable: true });
    expect(kafkaError(24)).toMatchObject({ name: 'INVALID_GROUP_ID', retriable: false });
    expect(kafkaError(30)).toMatchObject({ name: 'GROUP_AUTHORIZATION_FAILED', retriable: false });
    expect(kafkaError(35)).toMatchObject({
      name: 'UNSUPPORTED_VERSION',
      message: 'The version of API is not supported.',
    });
    expect(kafkaError(68)).toMatchObject({ name: 'NON_EMPTY_GROUP' });
    expect(kafkaError(69)).toMatchObject({
      name: 'GROUP_ID_NOT_FOUND',
      message: 'The group id does not exist.',
    });
    expect(kafkaError(-1)).toMatchObject({ name: 'UNKNOWN_SERVER_ERROR', retriable: false });
    expect(kafkaError(129)).toMatchObject({ name: 'REBOOTSTRAP_REQUIRED' });
    expect(kafkaError(134)).toMatchObject({ name: 'GROUP_DELETION_FAILED', retriable: false });
  });

  it('maps codes it does not know to a name instead of throwing', () => {
    expect(kafkaError(137)).toEqual({
      code: 137,
      name: 'UNKNOWN_ERROR_CODE_137',
      retriable: false,
      message: 'Kafka error code 137 is not known to this product.',
      known: false,
    });
    expect(kafkaError(-32768).name).toBe('UNKNOWN_ERROR_CODE_-32768');
  });

  it('gives codes by name', () => {
    expect(ErrorCode.GROUP_ID_NOT_FOUND).toBe(69);
    expect(ErrorCode.NOT_COORDINATOR).toBe(16);
    expect(ErrorCode.NONE).toBe(0);
  });
});
