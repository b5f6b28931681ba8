import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A certificate with its key, as PEM text and as files. */
export interface IssuedCertificate {
  cert: string;
  key: string;
  certFile: string;
  keyFile: string;
}

/** A certificate authority a test makes with `openssl`, to sign servers' certificates. */
export interface TestCertificateAuthority {
  /** The CA's certificate: PEM text, and the file holding it. */
  pem: string;
  file: string;
  /** A server certificate signed by this CA for `names` (host names and IP addresses). */
  issue(names: readonly string[]): IssuedCertificate;
  /** Removes its files. */
  remove(): void;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A fresh CA (EC P-256, valid for a day) in a directory of its own. */
export function createTestCertificateAuthority(name = 'genhub test CA'): TestCertificateAuthority {
  const dir = mkdtempSync(join(tmpdir(), 'genhub-ca-'));
  openssl(
    ['req', '-x509', ...EC_KEY, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1'].concat([
      '-subj',
      `/CN=${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]),
    dir,
  );
  let serial = 0;
  const issue = (names: readonly string[]): IssuedCertificate => {
    const base = `server-${++serial}`;
    const altNames = names.map((n) => (isIP(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
    writeFileSync(
      join(dir, `${base}.ext`),
      `subjectAltName=${altNames}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`,
    );
    openssl(
      ['req', '-new', ...EC_KEY, '-keyout', `${base}.key`, '-out', `${base}.csr`].concat([
        '-subj',
        `/CN=${names[0]}`,
      ]),
      dir,
    );
    openssl(
      ['x509', '-req', '-in', `${base}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key'].concat([
        '-CAcreateserial',
        '-days',
        '1',
        '-extfile',
        `${base}.ext`,
        '-out',
        `${base}.crt`,
      ]),
      dir,
    );
    const certFile = join(dir, `${base}.crt`);
    const keyFile = join(dir, `${base}.key`);
    return {
      cert: readFileSync(certFile, 'utf8'),
      key: readFileSync(keyFile, 'utf8'),
      certFile,
      keyFile,
    };
  };
  const file = join(dir, 'ca.pem');
  return {
    pem: readFileSync(file, 'utf8'),
    file,
    issue,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
