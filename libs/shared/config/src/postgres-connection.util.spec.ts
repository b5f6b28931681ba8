import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './load-config.util';
import { DatabaseConfig } from './pieces.config';
import { postgresConnection } from './postgres-connection.util';
import { describeTlsFailure, tlsFailureOf } from './tls-failure.util';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const URL = 'postgres://app:secret@db.internal:5432/genhub';

describe('postgresConnection: DATABASE_URL sslmode and DATABASE_TLS_CA as node-postgres options', () => {
  it('takes the TLS parameters out of the URL (a parsed one would replace ours), keeps the others', () => {
    const { connectionString } = postgresConnection(
      `${URL}?application_name=x&sslmode=verify-full&connect_timeout=5`,
    );
    expect(connectionString).toBe(`${URL}?application_name=x&connect_timeout=5`);
    expect(postgresConnection(`${URL}?sslmode=disable`).connectionString).toBe(URL);
  });

  it('reads sslmode as libpq does', () => {
    const mode = (query: string, ca?: string) => {
      const { ssl, sslMode } = postgresConnection(`${URL}${query}`, ca);
      return {
        sslMode,
        ssl: ssl && {
          ca: ssl.ca,
          rejectUnauthorized: ssl.rejectUnauthorized,
          checksHostName: !ssl.checkServerIdentity,
        },
      };
    };
    // Unset: plaintext as before; unset with a CA: the CA means verification, fully.
    expect(mode('')).toEqual({ sslMode: 'disable', ssl: false });
    expect(mode('', PEM)).toEqual({
      sslMode: 'verify-full',
      ssl: { ca: PEM, rejectUnauthorized: undefined, checksHostName: true },
    });
    expect(mode('?sslmode=disable', PEM)).toEqual({ sslMode: 'disable', ssl: false });
    // require: encrypted, not verified — verified against the CA once one is given (libpq).
    expect(mode('?sslmode=require')).toEqual({
      sslMode: 'require',
      ssl: { ca: undefined, rejectUnauthorized: false, checksHostName: true },
    });
    expect(mode('?sslmode=require', PEM)).toEqual({
      sslMode: 'require',
      ssl: { ca: PEM, rejectUnauthorized: undefined, checksHostName: false },
    });
    // verify-ca: the chain (the system's CAs without a setting), not the name.
    expect(mode('?sslmode=verify-ca')).toEqual({
      sslMode: 'verify-ca',
      ssl: { ca: undefined, rejectUnauthorized: undefined, checksHostName: false },
    });
    expect(mode('?sslmode=verify-full')).toEqual({
      sslMode: 'verify-full',
      ssl: { ca: undefined, rejectUnauthorized: undefined, checksHostName: true },
    });
  });

  it('reads DATABASE_TLS_CA as PEM text or as the file it names', () => {
    const dir = mkdtempSync(join(tmpdir(), 'genhub-ca-spec-'));
    try {
      writeFileSync(join(dir, 'ca.pem'), PEM);
      const { ssl } = postgresConnection(`${URL}?sslmode=verify-full`, join(dir, 'ca.pem'));
      expect(ssl && ssl.ca).toBe(PEM);
      // The configuration refuses a path with no file, or a file with no certificate, at start-up.
      writeFileSync(join(dir, 'empty.pem'), 'nothing here');
      const load = (DATABASE_TLS_CA: string) => () =>
        loadConfig(DatabaseConfig, { DATABASE_URL: URL, DATABASE_TLS_CA });
      expect(load(join(dir, 'missing.pem'))).toThrow(
        /^Invalid configuration: DATABASE_TLS_CA must be a PEM file's path or PEM text \(no such file\)/,
      );
      expect(load(join(dir, 'empty.pem'))).toThrow(
        /^Invalid configuration: DATABASE_TLS_CA must name a file of PEM certificates/,
      );
      expect(
        loadConfig(DatabaseConfig, { DATABASE_URL: URL, DATABASE_TLS_CA: PEM }).connection,
      ).toMatchObject({ sslMode: 'verify-full', ssl: { ca: PEM } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [
      'sslmode=prefer',
      /has sslmode=prefer: must be one of disable, require, verify-ca, verify-full$/,
    ],
    ['sslmode=no-verify', /has sslmode=no-verify: must be one of/],
    ['sslrootcert=/ca.pem', /has sslrootcert: set DATABASE_TLS_CA to the CA bundle instead/],
    [
      'sslcert=/c.pem&sslkey=/k.pem',
      /has sslcert: client certificates \(sslcert\) are not supported/,
    ],
    ['ssl=true', /has ssl: use sslmode=require, verify-ca or verify-full instead of ssl=/],
  ])('refuses %s at start-up, without printing the URL', (query, reason) => {
    const load = () => loadConfig(DatabaseConfig, { DATABASE_URL: `${URL}?${query}` });
    expect(load).toThrow(/^Invalid configuration: DATABASE_URL has /);
    expect(load).toThrow(reason);
    expect(load).not.toThrow(/secret/);
  });
});

describe('tlsFailureOf: a TLS failure in the words an operator acts on', () => {
  const wrapped = (code: string, message: string) => ({
    message: 'query failed',
    driverError: { message: 'connect failed', cause: Object.assign(new Error(message), { code }) },
  });

  it.each([
    [
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'unable to verify the first certificate',
      'certificate not trusted',
    ],
    [
      'SELF_SIGNED_CERT_IN_CHAIN',
      'self-signed certificate in certificate chain',
      'certificate not trusted',
    ],
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      "Hostname/IP does not match certificate's altnames",
      'certificate not valid for this host name',
    ],
    ['CERT_HAS_EXPIRED', 'certificate has expired', 'certificate expired or not yet valid'],
  ])('%s, however deeply wrapped', (code, message, summary) => {
    const failure = tlsFailureOf(wrapped(code, message));
    expect(failure && describeTlsFailure(failure)).toBe(`TLS: ${summary} (${code}: ${message})`);
  });

  it('names a server that does not speak TLS, and leaves other failures alone', () => {
    const noTls = tlsFailureOf(new Error('The server does not support SSL connections'));
    expect(noTls && describeTlsFailure(noTls)).toBe(
      'TLS: the server does not accept TLS (NO_TLS: The server does not support SSL connections)',
    );
    expect(
      tlsFailureOf(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })),
    ).toBeUndefined();
    expect(tlsFailureOf(new Error('password authentication failed'))).toBeUndefined();
  });
});
