/**
 * The codec's own failures, apart from Kafka's error codes (those are data, see errors.ts).
 * Every failure is a ProtocolError, so a caller can tell "the bytes are wrong" (decode: the broker
 * answered something unreadable, a 502) from "we asked for something impossible" (encode: a bug or
 * a version the caller should not have picked).
 */

/** Which message a failure belongs to; filled in by the ApiMessage wrapper, not by the Reader. */
export interface MessageContext {
  apiKey?: number;
  apiVersion?: number;
  /** 'ListGroups request', 'ConsumerProtocolSubscription', ... */
  message?: string;
}

export abstract class ProtocolError extends Error {}

export class ProtocolDecodeError extends ProtocolError {
  override readonly name = 'ProtocolDecodeError';
  readonly offset: number;
  readonly reason: string;
  readonly apiKey: number | undefined;
  readonly apiVersion: number | undefined;
  readonly context: string | undefined;

  constructor(reason: string, offset: number, context: MessageContext = {}, options?: { cause?: unknown }) {
    const where = context.message
      ? `${context.message}${context.apiVersion === undefined ? '' : ` v${context.apiVersion}`}: `
      : '';
    super(`${where}${reason} (at byte ${offset})`, options);
    this.reason = reason;
    this.offset = offset;
    this.apiKey = context.apiKey;
    this.apiVersion = context.apiVersion;
    this.context = context.message;
  }

  /** The same failure, told from the point of view of a message (the Reader knows only offsets). */
  withContext(context: MessageContext): ProtocolDecodeError {
    return new ProtocolDecodeError(this.reason, this.offset, context, { cause: this.cause });
  }
}

export class ProtocolEncodeError extends ProtocolError {
  override readonly name: string = 'ProtocolEncodeError';
  readonly reason: string;
  readonly apiKey: number | undefined;
  readonly apiVersion: number | undefined;
  readonly context: string | undefined;

  constructor(reason: string, context: MessageContext = {}, options?: { cause?: unknown }) {
    const where = context.message
      ? `${context.message}${context.apiVersion === undefined ? '' : ` v${context.apiVersion}`}: `
      : '';
    super(`${where}${reason}`, options);
    this.reason = reason;
    this.apiKey = context.apiKey;
    this.apiVersion = context.apiVersion;
    this.context = context.message;
  }

  withContext(context: MessageContext): ProtocolEncodeError {
    return new ProtocolEncodeError(this.reason, context, { cause: this.cause });
  }
}

/**
 * A field set to a non-default value in a version that has no room for it. Kafka's generated code
 * throws UnsupportedVersionException here; dropping it silently would send a different request than
 * the caller wrote (e.g. a TypesFilter that the broker never sees, so the list is not filtered).
 */
export class UnsupportedFieldVersionError extends ProtocolEncodeError {
  override readonly name = 'UnsupportedFieldVersionError';
  readonly field: string;
  readonly version: number;

  constructor(field: string, version: number, context: MessageContext = {}) {
    super(`field '${field}' is not in version ${version} and cannot carry a non-default value there`, {
      ...context,
      apiVersion: context.apiVersion ?? version,
    });
    this.field = field;
    this.version = version;
  }

  override withContext(context: MessageContext): UnsupportedFieldVersionError {
    return new UnsupportedFieldVersionError(this.field, this.version, context);
  }
}

/** A version outside what a codec implements, asked of encode or decode. */
export class UnsupportedVersionError extends ProtocolError {
  override readonly name = 'UnsupportedVersionError';

  constructor(
    readonly apiName: string,
    readonly version: number,
    readonly minVersion: number,
    readonly maxVersion: number,
    readonly apiKey?: number,
  ) {
    super(
      `${apiName} v${version} is not implemented (this codec reads and writes v${minVersion}-v${maxVersion})`,
    );
  }
}

/**
 * Whatever went wrong while reading, as a ProtocolDecodeError about this message. Anything that is
 * not one already (a RangeError from a bug, say) is wrapped rather than let through: the caller's
 * contract is "a broker answer either decodes or is a ProtocolDecodeError".
 */
export function decodeError(error: unknown, offset: number, context: MessageContext): ProtocolDecodeError {
  if (error instanceof ProtocolDecodeError) return error.withContext(context);
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new ProtocolDecodeError(`cannot decode: ${reason}`, offset, context, { cause: error });
}

export function encodeError(error: unknown, context: MessageContext): ProtocolError {
  if (error instanceof ProtocolEncodeError) return error.withContext(context);
  if (error instanceof ProtocolError) return error;
  // Typically a value of the wrong shape (undefined where an array was due): the caller's bug.
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new ProtocolEncodeError(`cannot encode: ${reason}`, context, { cause: error });
}
