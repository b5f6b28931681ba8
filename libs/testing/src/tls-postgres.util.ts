import { execFileSync, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IssuedCertificate } from './test-tls-ca.util';
import { closedPort } from './webhook-receiver.fake';

/** A private PostgreSQL that takes TLS connections with a SCRAM password only. */
export interface TlsPostgres {
  port: number;
  /** `postgres://genhub:<password>@<host>:<port>/<database>` (no sslmode: add your own). */
  url(database?: string, host?: string): string;
  /** Its server log, for a failing test's message. */
  log(): string;
  stop(): Promise<void>;
}

const USER = 'genhub';
export const TLS_POSTGRES_PASSWORD = 'tls-test-password';

/** Debian's PostgreSQL binaries (the newest installed major version). */
function binaries(): string {
  const versions = readdirSync('/usr/lib/postgresql')
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  if (!versions.length) throw new Error('no PostgreSQL under /usr/lib/postgresql');
  return join('/usr/lib/postgresql', versions[0], 'bin');
}

/** As root, PostgreSQL runs as the `postgres` user (initdb refuses root); otherwise as ourselves. */
const asRoot = process.getuid?.() === 0;
function run(command: string, args: string[]): void {
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args];
  const result = spawnSync(file, argv, {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, PGPASSWORD: TLS_POSTGRES_PASSWORD },
  });
  if (result.status !== 0)
    throw new Error(`${command} failed: ${result.stderr || result.stdout || result.error}`);
}

/**
 * Starts a PostgreSQL of the test's own (Debian's binaries, a temporary data
 * directory) that listens on 127.0.0.1 with `certificate`, asks for TLS
 * (`hostssl` only: plaintext is refused) and a SCRAM-SHA-256 password, as
 * managed PostgreSQL services do. The user `genhub` owns the database `genhub`.
 * It listens on 127.0.0.2 as well, an address a certificate for 127.0.0.1 does not name.
 */
export async function startTlsPostgres(certificate: IssuedCertificate): Promise<TlsPostgres> {
  const bin = binaries();
  const dir = mkdtempSync(join(tmpdir(), 'genhub-tls-pg-'));
  const data = join(dir, 'data');
  const port = await closedPort();
  const log = join(dir, 'server.log');
  try {
    // Files PostgreSQL reads are its own (a key readable by others is refused).
    const own = (file: string, mode: number) => {
      if (asRoot) chownSync(file, idOf('-u'), idOf('-g'));
      chmodSync(file, mode);
    };
    own(dir, 0o700);
    const pwfile = join(dir, 'password');
    writeFileSync(pwfile, TLS_POSTGRES_PASSWORD);
    own(pwfile, 0o600);
    run(join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      USER,
      '--pwfile',
      pwfile,
      '--auth=scram-sha-256',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    for (const [name, pem] of [
      ['server.crt', certificate.cert],
      ['server.key', certificate.key],
    ] as const) {
      writeFileSync(join(data, name), pem);
      own(join(data, name), 0o600);
    }
    appendFileSync(
      join(data, 'postgresql.conf'),
      [
        // 127.0.0.2 too: the same server under an address its certificate does not name.
        `listen_addresses = '127.0.0.1,127.0.0.2'`,
        `port = ${port}`,
        `unix_socket_directories = '${dir}'`,
        'ssl = on',
        `ssl_cert_file = 'server.crt'`,
        `ssl_key_file = 'server.key'`,
        `password_encryption = 'scram-sha-256'`,
        'fsync = off',
        '',
      ].join('\n'),
    );
    // TLS and a SCRAM password, or nothing: no `host` line, so plaintext is refused.
    writeFileSync(
      join(data, 'pg_hba.conf'),
      'local all all scram-sha-256\nhostssl all all 127.0.0.0/8 scram-sha-256\n',
    );
    run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '30', 'start']);
    run(join(bin, 'createdb'), ['-h', dir, '-p', String(port), '-U', USER, USER]);
  } catch (error) {
    // A half-made server: stopped (when it started) and its directory removed.
    try {
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // It never started.
    }
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    url: (database = USER, host = '127.0.0.1') =>
      `postgres://${USER}:${TLS_POSTGRES_PASSWORD}@${host}:${port}/${database}`,
    log: () => (existsSync(log) ? readFileSync(log, 'utf8') : ''),
    stop: async () => {
      try {
        run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The `postgres` user's uid (`-u`) or gid (`-g`). */
function idOf(which: '-u' | '-g'): number {
  return Number(execFileSync('id', [which, 'postgres'], { encoding: 'utf8' }).trim());
}
