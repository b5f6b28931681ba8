import { describeTlsFailure, tlsFailureOf, type TlsFailure } from '@genhub/config';

/** PostgreSQL could not be reached over TLS as configured: one line that says what to change. */
export class PostgresTlsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PostgresTlsError';
  }
}

/** What the operator can change, by failure. */
function hint(failure: TlsFailure, host: string, caSet: boolean): string {
  switch (failure.kind) {
    case 'untrusted':
      return caSet
        ? 'DATABASE_TLS_CA does not hold the CA that signed the server certificate'
        : 'set DATABASE_TLS_CA to the CA bundle that signed the server certificate';
    case 'name':
      return `the server certificate does not name ${host}: connect by a name it holds, or use sslmode=verify-ca`;
    case 'expired':
      return 'the server certificate must be renewed';
    case 'no-tls':
      return 'turn TLS on in PostgreSQL, or use sslmode=disable';
    case 'handshake':
      return 'check the server TLS settings';
  }
}

/**
 * The error to show when connecting failed because of TLS, else undefined
 * (the error stands as it is). `url` is DATABASE_URL or the connection string
 * made from it: only its host and port are shown, never its credentials.
 */
export function postgresTlsError(
  error: unknown,
  target: { url: string; caSet: boolean },
): PostgresTlsError | undefined {
  const failure = tlsFailureOf(error);
  if (!failure) return undefined;
  let host = 'the server';
  try {
    const { hostname, port } = new URL(target.url);
    if (hostname) host = `${hostname}:${port || 5432}`;
  } catch {
    // A socket path form: the host stays unnamed.
  }
  return new PostgresTlsError(
    `PostgreSQL at ${host}: ${describeTlsFailure(failure)}; ${hint(failure, host.replace(/:\d+$/, ''), target.caSet)}`,
  );
}
