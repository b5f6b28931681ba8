/** What went wrong in a TLS handshake, in the words an operator acts on. */
export interface TlsFailure {
  /** untrusted: no CA we trust signed it; name: it is for another host; expired: outside its dates; no-tls: the server does not speak TLS; handshake: anything else. */
  kind: 'untrusted' | 'name' | 'expired' | 'no-tls' | 'handshake';
  /** OpenSSL's or Node's code, e.g. UNABLE_TO_VERIFY_LEAF_SIGNATURE. */
  code: string;
  /** The library's own sentence. */
  detail: string;
}

const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
]);
const EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const NAME = 'ERR_TLS_CERT_ALTNAME_INVALID';
/** node-postgres's words when the server answers the SSL request with "no". */
const NO_TLS_MESSAGE = 'The server does not support SSL connections';

const SUMMARY: Record<TlsFailure['kind'], string> = {
  untrusted: 'certificate not trusted',
  name: 'certificate not valid for this host name',
  expired: 'certificate expired or not yet valid',
  'no-tls': 'the server does not accept TLS',
  handshake: 'TLS handshake failed',
};

/**
 * The TLS failure behind an error (followed through `cause`, TypeORM's
 * `driverError` and AWS SDK wrappers), or undefined when it is not one.
 */
export function tlsFailureOf(error: unknown): TlsFailure | undefined {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 5; depth++) {
    const code = typeof e['code'] === 'string' ? e['code'] : '';
    const detail = typeof e['message'] === 'string' ? e['message'] : String(e);
    if (UNTRUSTED.has(code)) return { kind: 'untrusted', code, detail };
    if (EXPIRED.has(code)) return { kind: 'expired', code, detail };
    if (code === NAME) return { kind: 'name', code, detail };
    if (detail.startsWith(NO_TLS_MESSAGE)) return { kind: 'no-tls', code: 'NO_TLS', detail };
    if (/^ERR_(SSL|TLS)_/.test(code)) return { kind: 'handshake', code, detail };
    e = (e['driverError'] ?? e['cause']) as Record<string, unknown> | undefined;
  }
  return undefined;
}

/** One line, e.g. `TLS: certificate not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate)`. */
export function describeTlsFailure(failure: TlsFailure): string {
  const detail = failure.detail.split('\n')[0].replace(/\.$/, '');
  return `TLS: ${SUMMARY[failure.kind]} (${failure.code}: ${detail})`;
}
