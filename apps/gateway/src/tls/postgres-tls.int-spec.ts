import { spawnSync } from 'node:child_process';
import { Client } from 'pg';
import { postgresConnection } from '@genhub/config';
import {
  ALL_APPS,
  type BuiltApp,
  buildAppForTest,
  closedPort,
  createTestCertificateAuthority,
  deleteQueuePrefix,
  itRunsThePlatform,
  type PlatformUnderTest,
  type RedisTestStandalone,
  startLocalPlatform,
  startRedisStandalone,
  startTlsPostgres,
  type TestCertificateAuthority,
  testQueuePrefix,
  type TlsPostgres,
  WebhookReceiver,
} from '@genhub/testing';

/**
 * A PostgreSQL as managed services run it: TLS with a certificate from a
 * private CA, SCRAM-SHA-256 passwords, plaintext refused. The built apps,
 * migrations and admin CLI on `sslmode=verify-full` + DATABASE_TLS_CA
 * (decision 0138). One server for the file, stopped at the end.
 */
describe('PostgreSQL over TLS with a private CA and a SCRAM password', () => {
  let ca: TestCertificateAuthority;
  let otherCa: TestCertificateAuthority;
  let postgres: TlsPostgres;
  let gateway: BuiltApp;
  /** The server's database on verify-full, by the address its certificate names. */
  let url: string;
  /** The built CLIs' and apps' queue prefix (the platform below has its own). */
  const prefix = testQueuePrefix('pg-tls-cli');

  beforeAll(async () => {
    ca = createTestCertificateAuthority();
    otherCa = createTestCertificateAuthority('another CA');
    postgres = await startTlsPostgres(ca.issue(['localhost', '127.0.0.1']));
    url = `${postgres.url()}?sslmode=verify-full`;
    gateway = buildAppForTest('gateway', 'pg-tls');
  }, 120_000);

  afterAll(async () => {
    gateway?.remove();
    await deleteQueuePrefix(process.env.REDIS_URL as string, prefix);
    await postgres?.stop();
    ca?.remove();
    otherCa?.remove();
  });

  /** A built gateway entry run with the TLS database settings (and `env`); its exit code and output. */
  const runBuilt = (file: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
    const result = spawnSync(process.execPath, [gateway.entry(file), ...args], {
      env: {
        ...process.env,
        DATABASE_URL: url,
        DATABASE_TLS_CA: ca.file,
        API_KEY_PEPPER: 'pg-tls-test-pepper-0123456789',
        QUEUE_PREFIX: prefix,
        LOG_LEVEL: 'silent',
        HOST: '127.0.0.1',
        ...env,
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it('refuses plaintext; stores and checks passwords as SCRAM-SHA-256', async () => {
    const plain = new Client({ connectionString: postgres.url() });
    await expect(plain.connect()).rejects.toThrow(/no pg_hba\.conf entry .* no encryption/);
    await plain.end().catch(() => undefined);

    const wrongPassword = new Client(
      postgresConnection(url.replace(/:[^:@/]+@/, ':not-the-password@'), ca.pem),
    );
    await expect(wrongPassword.connect()).rejects.toThrow(/password authentication failed/);
    await wrongPassword.end().catch(() => undefined);

    const db = new Client(postgresConnection(url, ca.pem));
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT current_setting('password_encryption') AS encryption,
                (SELECT rolpassword LIKE 'SCRAM-SHA-256$%' FROM pg_authid WHERE rolname = current_user) AS scram,
                (SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()) AS ssl`,
      );
      expect(rows[0]).toEqual({ encryption: 'scram-sha-256', scram: true, ssl: true });
    } finally {
      await db.end();
    }
  });

  it('migrates with the built CLI on verify-full + DATABASE_TLS_CA (a file or PEM text)', () => {
    const first = runBuilt('cli/migrate', []);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/^applied \d+ migration\(s\): /);
    expect(first.status).toBe(0);
    const again = runBuilt('cli/migrate', [], { DATABASE_TLS_CA: ca.pem });
    expect([again.status, again.stdout]).toEqual([0, 'database is up to date\n']);
  });

  it('stops the migrations and start-up with one clear line on a CA that did not sign the certificate', async () => {
    const migrate = runBuilt('cli/migrate', [], { DATABASE_TLS_CA: otherCa.file });
    expect(migrate.status).toBe(1);
    expect(migrate.stderr).toMatch(
      /^migrate: PostgreSQL at 127\.0\.0\.1:\d+: TLS: certificate not trusted \([A-Z_]+: [^)]+\); DATABASE_TLS_CA does not hold the CA that signed the server certificate\n$/,
    );

    const port = String(await closedPort());
    const wrongCa = runBuilt('main', [], { DATABASE_TLS_CA: otherCa.file, PORT: port });
    expect(wrongCa.status).toBe(1);
    expect(wrongCa.stderr).toMatch(
      /^gateway: failed to start: PostgreSQL at 127\.0\.0\.1:\d+: TLS: certificate not trusted \([A-Z_]+: [^)]+\); DATABASE_TLS_CA does not hold the CA that signed the server certificate\n$/,
    );

    // No CA at all: the system's CAs do not know the private one.
    const noCa = runBuilt('main', [], { DATABASE_TLS_CA: '', PORT: port });
    expect(noCa.status).toBe(1);
    expect(noCa.stderr).toMatch(
      /^gateway: failed to start: PostgreSQL at 127\.0\.0\.1:\d+: TLS: certificate not trusted \(.*\); set DATABASE_TLS_CA to the CA bundle that signed the server certificate\n$/,
    );
  }, 60_000);

  it('stops start-up with one clear line on a host name the certificate does not hold; verify-ca accepts it', async () => {
    const port = String(await closedPort());
    const elsewhere = `${postgres.url('genhub', '127.0.0.2')}?sslmode=verify-full`;
    const wrongName = runBuilt('main', [], { DATABASE_URL: elsewhere, PORT: port });
    expect(wrongName.status).toBe(1);
    expect(wrongName.stderr).toMatch(
      /^gateway: failed to start: PostgreSQL at 127\.0\.0\.2:\d+: TLS: certificate not valid for this host name \(ERR_TLS_CERT_ALTNAME_INVALID: [^)]+\); the server certificate does not name 127\.0\.0\.2: connect by a name it holds, or use sslmode=verify-ca\n$/,
    );
    // verify-ca checks the chain only: the same address passes (the admin CLI, which exits).
    const chainOnly = runBuilt('cli/admin', ['list-accounts', '--json'], {
      DATABASE_URL: elsewhere.replace('verify-full', 'verify-ca'),
    });
    expect([chainOnly.stderr, chainOnly.status]).toEqual(['', 0]);
  }, 60_000);

  it('runs an admin CLI command over verify-full', () => {
    const created = runBuilt('cli/admin', ['create-account', '--balance', '3', '--json']);
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ balance: 3, status: 'active' });
  });

  /**
   * Issue 40's whole: the lifecycle with both backing services refusing
   * plaintext — this PostgreSQL, and a Redis of the block's own that speaks
   * TLS only, as an ACL user, its certificate from another private CA.
   */
  describe('the four built apps on verify-full, with a TLS-only Redis', () => {
    let run: PlatformUnderTest;
    let redis: RedisTestStandalone;

    beforeAll(async () => {
      redis = await startRedisStandalone({ tls: true });
      const receiver = await WebhookReceiver.start();
      const platform = await startLocalPlatform(
        'pg-tls',
        { ALLOW_PRIVATE_NETWORK_URLS: 'true', SYNC_TIMEOUT_MS: '20000' },
        { apps: ALL_APPS, database: { url, tlsCa: ca.file }, redis },
      ).catch(async (error: unknown) => {
        await receiver.close();
        throw new Error(`${(error as Error).message}\n${postgres.log().slice(-2000)}`);
      });
      run = {
        platform,
        receiver,
        key: await platform.accountWithKey(100),
        stop: async () => {
          await platform.stop();
          await receiver.close();
        },
      };
    }, 180_000);

    afterAll(async () => {
      await run?.stop();
      await redis?.stop();
    }, 60_000);

    it('are ready, every connection of theirs encrypted', async () => {
      for (const app of ALL_APPS) {
        const ready = await fetch(`${run.platform.url(app)}/ready`);
        expect([app, ready.status]).toEqual([app, 200]);
      }
      const db = new Client(postgresConnection(url, ca.pem));
      await db.connect();
      try {
        const { rows } = await db.query(
          `SELECT count(*)::int AS clients, count(*) FILTER (WHERE s.ssl)::int AS encrypted
             FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid)
            WHERE a.backend_type = 'client backend' AND a.pid <> pg_backend_pid()`,
        );
        // Each app holds at least one pooled connection.
        expect(rows[0].clients).toBeGreaterThanOrEqual(ALL_APPS.length);
        expect(rows[0].encrypted).toBe(rows[0].clients);
      } finally {
        await db.end();
      }
      expect(redis.env.REDIS_URL).toMatch(/^rediss:\/\//);
      // Redis (TLS only: its plaintext port is off) sees the apps as the ACL user.
      const clients = await redis.cli(redis.port, 'CLIENT', 'LIST');
      expect(clients).toMatch(/ user=genhub-app /);
      expect(clients).not.toMatch(/ user=default /);
    });

    itRunsThePlatform(() => run);
  });
});
