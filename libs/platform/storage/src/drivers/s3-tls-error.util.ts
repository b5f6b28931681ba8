import { describeTlsFailure, tlsFailureOf } from '@genhub/config';

/** The S3 endpoint could not be reached over TLS: one line that says what to change. */
export class S3TlsError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'S3TlsError';
  }
}

/** The error to throw when an S3 call failed because of TLS, else undefined (the error stands). */
export function s3TlsError(
  error: unknown,
  endpoint: string | undefined,
  caSet: boolean,
): S3TlsError | undefined {
  const failure = tlsFailureOf(error);
  if (!failure) return undefined;
  const hint =
    failure.kind !== 'untrusted'
      ? ''
      : caSet
        ? '; S3_TLS_CA does not hold the CA that signed its certificate'
        : '; set S3_TLS_CA to the CA bundle that signed its certificate';
  return new S3TlsError(
    `S3 endpoint ${endpoint ?? '(AWS)'}: ${describeTlsFailure(failure)}${hint}`,
    error,
  );
}
