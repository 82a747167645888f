import { describe, expect, it } from 'vitest';
import { ErrorCode, KAFKA_ERRORS, kafkaError } from './errors.js';

describe('Kafka error codes', () => {
  it('knows every code from -1 to 133 once', () => {
    expect(KAFKA_ERRORS.size).toBe(135);
    for (let code = -1; code <= 133; code++) expect(KAFKA_ERRORS.get(code)?.code).toBe(code);
    expect(new Set([...KAFKA_ERRORS.values()].map((e) => e.name)).size).toBe(135);
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
  });

  it('maps codes it does not know to a name instead of throwing', () => {
    expect(kafkaError(134)).toEqual({
      code: 134,
      name: 'UNKNOWN_ERROR_CODE_134',
      retriable: false,
      message: 'Kafka error code 134 is not known to this product.',
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
