import { APP_ERRORS, AppErrorCode } from './app-error-codes.constants';

export interface AppExceptionDetails {
  /** Replaces the catalogue's default message. */
  message?: string;
  /** The request fields at fault, for validation errors. */
  fields?: string[];
  /** The chat-family `param`. */
  param?: string;
}

/**
 * The one exception domain code throws. It carries a catalogue code, never an
 * HTTP status: the transport's filter decides the body.
 */
export class AppException extends Error {
  constructor(
    readonly code: AppErrorCode,
    readonly details: AppExceptionDetails = {},
  ) {
    super(details.message ?? APP_ERRORS[code].message);
    this.name = 'AppException';
  }

  static isAppException(error: unknown): error is AppException {
    return error instanceof AppException;
  }
}
