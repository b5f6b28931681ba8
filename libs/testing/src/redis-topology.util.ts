import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig, RedisConfig } from '@genhub/config';
import { testQueuePrefix } from './test-database.util';
import { until } from './wait-for.util';

const run = promisify(execFile);

/** Redis servers a test started for itself, and how the apps reach them. */
export interface RedisTestTopology {
  /** What the apps need to reach it: `REDIS_URL`, `REDIS_SENTINELS` … or `REDIS_CLUSTER_NODES` (and TLS, credentials). */
  readonly env: Readonly<Record<string, string>>;
  /** Its TLS material and ACL user, when it speaks TLS only. */
  readonly tls?: RedisTestTls;
  /** Runs `redis-cli` against one of its servers (with TLS and the ACL user when it has them). */
  cli(port: number, ...args: string[]): Promise<string>;
  /** The ports of its servers running now, and which of them are data nodes (not Sentinels). */
  servers(): { port: number; dataNode: boolean }[];
  /** A queue prefix of this test's own that the topology accepts (a hash tag on a cluster). */
  queuePrefix(label: string): string;
  /** The apps' Redis configuration for `prefix`, for clients the test opens itself. */
  config(prefix: string): RedisConfig;
  /** Stops every server it started and removes their directory. */
  stop(): Promise<void>;
}

/** How long one `redis-cli` command may take. */
const CLI_MS = 10_000;

/** Runs `redis-cli` against a port; its trimmed output. */
export async function redisCli(port: number, ...args: string[]): Promise<string> {
  return redisCliWithin(CLI_MS, port, ...args);
}

/** `redisCli` given `ms` to finish (a cluster's creation waits for its nodes to agree). */
async function redisCliWithin(ms: number, port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], {
    timeout: ms,
  });
  return stdout.trim();
}

/**
 * How long `redis-cli --cluster create` may take: it waits until the nodes'
 * gossip agrees, which on a busy two-core machine (CI runs the projects' suites
 * side by side) took longer than a command's 10 s.
 */
const CLUSTER_CREATE_MS = 45_000;

/**
 * A TLS set-up's material, made by the test with `openssl`: a CA of its own,
 * one server certificate it signed for 127.0.0.1 and localhost (every server
 * shares it), another CA that signed nothing here, the ACL user every
 * data node requires (the `default` user is off) and the Sentinels' password.
 */
export interface RedisTestTls {
  readonly caFile: string;
  readonly wrongCaFile: string;
  readonly certFile: string;
  readonly keyFile: string;
  readonly username: string;
  readonly password: string;
  /** The Sentinels' own `requirepass` (REDIS_SENTINEL_PASSWORD). */
  readonly sentinelPassword: string;
}

async function openssl(dir: string, ...args: string[]): Promise<void> {
  await run('openssl', args, { cwd: dir, timeout: 20_000 });
}

/** Makes a test CA, a server certificate it signs and a stranger CA in `dir`. */
export async function makeRedisTestTls(dir: string): Promise<RedisTestTls> {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  for (const ca of ['ca', 'wrong-ca'])
    await openssl(
      dir,
      'req',
      '-x509',
      ...ec,
      '-days',
      '2',
      '-subj',
      `/CN=genhub test ${ca}`,
      '-keyout',
      `${ca}.key`,
      '-out',
      `${ca}.crt`,
    );
  await openssl(
    dir,
    'req',
    ...ec,
    '-subj',
    '/CN=localhost',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
  );
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await openssl(
    dir,
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'server.ext',
    '-out',
    'server.crt',
  );
  return {
    caFile: join(dir, 'ca.crt'),
    wrongCaFile: join(dir, 'wrong-ca.crt'),
    certFile: join(dir, 'server.crt'),
    keyFile: join(dir, 'server.key'),
    username: 'genhub-app',
    password: 'tls-test-secret',
    sentinelPassword: 'tls-test-sentinel-secret',
  };
}

/** `redis-cli` flags that reach a TLS server of `tls` as its ACL user. */
function tlsCliArgs(tls: RedisTestTls, sentinel: boolean): string[] {
  const auth = sentinel
    ? ['--pass', tls.sentinelPassword]
    : ['--user', tls.username, '--pass', tls.password];
  return ['--tls', '--cacert', tls.caFile, ...auth, '--no-auth-warning'];
}

/**
 * A server's flags for TLS only (no plaintext port), trusting the test CA for
 * the connections it makes itself (replication, cluster bus), with the ACL
 * user in place of `default`.
 */
function tlsServerArgs(tls: RedisTestTls, port: number): string[] {
  return [
    '--port',
    '0',
    '--tls-port',
    String(port),
    '--tls-cert-file',
    tls.certFile,
    '--tls-key-file',
    tls.keyFile,
    '--tls-ca-cert-file',
    tls.caFile,
    '--tls-auth-clients',
    'no',
    '--tls-replication',
    'yes',
  ];
}

/** The ACL of every TLS data node: the app's user with every right, `default` off. */
function aclArgs(tls: RedisTestTls): string[] {
  return [
    '--user',
    'default',
    'off',
    '--user',
    tls.username,
    'on',
    `>${tls.password}`,
    '~*',
    '&*',
    '+@all',
    '--masteruser',
    tls.username,
    '--masterauth',
    tls.password,
  ];
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free port whose cluster-bus port (+10000) is free too, away from the ephemeral range. */
async function freeRedisPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (taken.has(port) || taken.has(port + 10_000)) continue;
    if ((await isFree(port)) && (await isFree(port + 10_000))) {
      taken.add(port).add(port + 10_000);
      return port;
    }
  }
}

/** Waits until `check` holds (a failing check counts as not yet), for at most `ms`. */
async function reached(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  await until(() => check().catch(() => false), {
    ms,
    every: 100,
    what: `redis test servers: ${what}`,
  });
}

/** The servers of one topology: each a child process, stopped (SIGKILL if need be) at the end. */
class RedisProcesses {
  readonly dir = mkdtempSync(join(tmpdir(), 'genhub-redis-'));
  readonly ports = new Set<number>();
  private readonly children = new Map<number, ChildProcess>();
  /** Set by `useTls`: every server then speaks TLS only. */
  tls?: RedisTestTls;
  private readonly sentinelPorts = new Set<number>();

  /** Makes the TLS material: the servers started from now on speak TLS only. */
  async useTls(): Promise<RedisTestTls> {
    this.tls = await makeRedisTestTls(this.dir);
    return this.tls;
  }

  /** `redis-cli` against one of these servers, over TLS as the ACL user when they use them. */
  cli(port: number, ...args: string[]): Promise<string> {
    return this.cliWithin(CLI_MS, port, ...args);
  }

  /** `cli` given `ms` to finish. */
  cliWithin(ms: number, port: number, ...args: string[]): Promise<string> {
    // Over TLS the data nodes require the ACL user, the Sentinels their password.
    const tls = this.tls ? tlsCliArgs(this.tls, this.sentinelPorts.has(port)) : [];
    return redisCliWithin(ms, port, ...tls, ...args);
  }

  running(): { port: number; dataNode: boolean }[] {
    return [...this.children.keys()].map((port) => ({
      port,
      dataNode: !this.sentinelPorts.has(port),
    }));
  }

  /** Starts a server (`sentinel`: no ACL of its own); its port. */
  async start(args: string[], port?: number, sentinel = false): Promise<number> {
    const own = port ?? (await freeRedisPort(this.ports));
    const listen = this.tls
      ? [...tlsServerArgs(this.tls, own), ...(sentinel ? [] : aclArgs(this.tls))]
      : ['--port', String(own)];
    if (sentinel) this.sentinelPorts.add(own);
    const child = spawn('redis-server', [...args, ...listen], {
      cwd: this.dir,
      stdio: 'ignore',
    });
    this.children.set(own, child);
    await reached(`redis-server on ${own}`, async () => {
      if (child.exitCode !== null) throw new Error(`redis-server on ${own} exited`);
      return (await this.cli(own, 'PING')) === 'PONG';
    });
    return own;
  }

  /** Stops one server: SIGKILL (a crash, nothing saved) or SIGTERM. */
  stopOne(port: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.children.get(port);
    this.children.delete(port);
    return new Promise((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill(signal);
    });
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.children.keys()].map((port) => this.stopOne(port)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Private and throw-away: no persistence, loopback only. */
const SERVER_ARGS = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];

/** Options of every starter: `tls` for TLS only, an ACL user and a test CA. */
export interface RedisTestOptions {
  tls?: boolean;
}

/** What the apps need besides the addresses over TLS: the CA bundle and, for Sentinel or Cluster, the ACL user. */
function tlsEnv(tls: RedisTestTls | undefined, distributed: boolean): Record<string, string> {
  if (!tls) return {};
  return {
    REDIS_TLS_CA: tls.caFile,
    ...(distributed
      ? { REDIS_TLS: 'true', REDIS_USERNAME: tls.username, REDIS_PASSWORD: tls.password }
      : {}),
  };
}

function topology(
  processes: RedisProcesses,
  env: Record<string, string>,
  queuePrefix: (label: string) => string,
): RedisTestTopology {
  return {
    env,
    tls: processes.tls,
    cli: (port, ...args) => processes.cli(port, ...args),
    servers: () => processes.running(),
    queuePrefix,
    config: (prefix) => loadConfig(RedisConfig, { ...env, QUEUE_PREFIX: prefix }),
    stop: () => processes.stopAll(),
  };
}

export interface RedisTestStandalone extends RedisTestTopology {
  readonly port: number;
}

/**
 * One Redis server on a free private port: with `tls`, TLS only, the ACL user
 * in a `rediss://` REDIS_URL and the test CA in REDIS_TLS_CA; it then listens
 * on 127.0.0.2 too, an address its certificate does not name.
 */
export async function startRedisStandalone(
  options: RedisTestOptions = {},
): Promise<RedisTestStandalone> {
  const processes = new RedisProcesses();
  try {
    const tls = options.tls ? await processes.useTls() : undefined;
    // Over TLS it listens on 127.0.0.2 too, an address its certificate does not name.
    const bind = tls ? ['--bind', '127.0.0.1', '127.0.0.2'] : [];
    const port = await processes.start([...SERVER_ARGS, ...bind]);
    const url = tls
      ? `rediss://${tls.username}:${tls.password}@127.0.0.1:${port}`
      : `redis://127.0.0.1:${port}`;
    const env = { REDIS_URL: url, ...tlsEnv(tls, false) };
    return { ...topology(processes, env, (label) => testQueuePrefix(label)), port };
  } catch (error) {
    await processes.stopAll();
    throw error;
  }
}

export interface RedisTestCluster extends RedisTestTopology {
  /** The primaries' ports. */
  readonly ports: readonly number[];
}

/**
 * A Redis Cluster of `primaries` primaries (no replicas) on free private
 * ports, built with `redis-cli --cluster create`, ready once every node says
 * `cluster_state:ok`. With `tls` the cluster bus speaks TLS too.
 */
export async function startRedisCluster(
  primaries = 3,
  options: RedisTestOptions = {},
): Promise<RedisTestCluster> {
  const processes = new RedisProcesses();
  try {
    if (options.tls) await processes.useTls();
    const ports: number[] = [];
    for (let i = 0; i < primaries; i++) {
      const port = await freeRedisPort(processes.ports);
      ports.push(
        await processes.start(
          [
            ...SERVER_ARGS,
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            `nodes-${port}.conf`,
            ...(options.tls ? ['--tls-cluster', 'yes'] : []),
          ],
          port,
        ),
      );
    }
    await processes.cliWithin(
      CLUSTER_CREATE_MS,
      ports[0],
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    );
    for (const port of ports)
      await reached(`cluster_state:ok on ${port}`, async () =>
        (await processes.cli(port, 'CLUSTER', 'INFO')).includes('cluster_state:ok'),
      );
    const env = {
      REDIS_CLUSTER_NODES: ports.map((port) => `127.0.0.1:${port}`).join(','),
      ...tlsEnv(processes.tls, true),
    };
    return {
      ...topology(processes, env, (label) => `{${testQueuePrefix(label)}}`),
      ports,
    };
  } catch (error) {
    await processes.stopAll();
    throw error;
  }
}

export interface RedisTestSentinel extends RedisTestTopology {
  /** The master group name the Sentinels monitor. */
  readonly master: string;
  /** The Sentinels' ports. */
  readonly sentinels: readonly number[];
  /** The port of the primary now, as the Sentinels report it. */
  primaryPort(): Promise<number>;
  /**
   * SIGKILLs the primary (a crash: nothing saved, no goodbye) and waits until
   * the Sentinels have promoted a replica and it acts as primary; its port.
   */
  killPrimary(): Promise<number>;
}

/**
 * A primary, `replicas` replicas and three Sentinels (quorum 2, a primary
 * presumed down after one second) on free private ports, ready once the
 * replicas are in sync and every Sentinel knows them and the others. With
 * `tls`, replication and the Sentinels speak TLS too, the Sentinels reach
 * the data nodes as the ACL user and require a password of their own.
 */
export async function startRedisSentinel(
  replicas = 1,
  options: RedisTestOptions = {},
): Promise<RedisTestSentinel> {
  const master = 'genhub-test';
  const processes = new RedisProcesses();
  try {
    const tls = options.tls ? await processes.useTls() : undefined;
    const cli = processes.cli.bind(processes);
    const primary = await processes.start(SERVER_ARGS);
    const replicaPorts: number[] = [];
    for (let i = 0; i < replicas; i++)
      replicaPorts.push(
        await processes.start([...SERVER_ARGS, '--replicaof', '127.0.0.1', String(primary)]),
      );
    for (const port of replicaPorts)
      await reached(`replica ${port} in sync`, async () =>
        (await cli(port, 'INFO', 'replication')).includes('master_link_status:up'),
      );
    const sentinels: number[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await freeRedisPort(processes.ports);
      const file = join(processes.dir, `sentinel-${port}.conf`);
      writeFileSync(
        file,
        [
          'bind 127.0.0.1',
          `sentinel monitor ${master} 127.0.0.1 ${primary} 2`,
          `sentinel down-after-milliseconds ${master} 1000`,
          `sentinel failover-timeout ${master} 5000`,
          `sentinel parallel-syncs ${master} 1`,
          ...(tls
            ? [
                `sentinel auth-user ${master} ${tls.username}`,
                `sentinel auth-pass ${master} ${tls.password}`,
                // The Sentinels' own password, which they also use with each other.
                `requirepass ${tls.sentinelPassword}`,
                `sentinel sentinel-pass ${tls.sentinelPassword}`,
              ]
            : []),
          '',
        ].join('\n'),
      );
      sentinels.push(await processes.start([file, '--sentinel'], port, true));
    }
    for (const port of sentinels)
      await reached(`sentinel ${port} to know the replicas and the other sentinels`, async () => {
        const known = await cli(port, 'SENTINEL', 'MASTER', master);
        const field = (name: string) =>
          Number(known.split('\n')[known.split('\n').indexOf(name) + 1]);
        return field('num-slaves') === replicas && field('num-other-sentinels') === 2;
      });
    const primaryPort = async () =>
      Number(
        (await cli(sentinels[0], 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', master)).split('\n')[1],
      );
    const env = {
      REDIS_SENTINELS: sentinels.map((port) => `127.0.0.1:${port}`).join(','),
      REDIS_SENTINEL_MASTER: master,
      ...tlsEnv(tls, true),
      ...(tls ? { REDIS_SENTINEL_PASSWORD: tls.sentinelPassword } : {}),
    };
    return {
      ...topology(processes, env, (label) => testQueuePrefix(label)),
      master,
      sentinels,
      primaryPort,
      killPrimary: async () => {
        const old = await primaryPort();
        await processes.stopOne(old, 'SIGKILL');
        let promoted = old;
        await reached(
          'a replica promoted',
          async () => {
            promoted = await primaryPort();
            return (
              promoted !== old &&
              (await cli(promoted, 'ROLE')).startsWith('master') &&
              // Every Sentinel agrees, so a client asking any of them finds the new primary.
              (
                await Promise.all(
                  sentinels.map((port) => cli(port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', master)),
                )
              ).every((answer) => answer.endsWith(`\n${promoted}`))
            );
          },
          30_000,
        );
        return promoted;
      },
    };
  } catch (error) {
    await processes.stopAll();
    throw error;
  }
}
