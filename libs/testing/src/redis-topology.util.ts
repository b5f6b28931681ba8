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
  /** What the apps need to reach it: `REDIS_SENTINELS` … or `REDIS_CLUSTER_NODES`. */
  readonly env: Readonly<Record<string, string>>;
  /** A queue prefix of this test's own that the topology accepts (a hash tag on a cluster). */
  queuePrefix(label: string): string;
  /** The apps' Redis configuration for `prefix`, for clients the test opens itself. */
  config(prefix: string): RedisConfig;
  /** Stops every server it started and removes their directory. */
  stop(): Promise<void>;
}

/** Runs `redis-cli` against a port; its trimmed output. */
export async function redisCli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], {
    timeout: 10_000,
  });
  return stdout.trim();
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

  async start(args: string[], port?: number): Promise<number> {
    const own = port ?? (await freeRedisPort(this.ports));
    const child = spawn('redis-server', [...args, '--port', String(own)], {
      cwd: this.dir,
      stdio: 'ignore',
    });
    this.children.set(own, child);
    await reached(`redis-server on ${own}`, async () => {
      if (child.exitCode !== null) throw new Error(`redis-server on ${own} exited`);
      return (await redisCli(own, 'PING')) === 'PONG';
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

function topology(
  processes: RedisProcesses,
  env: Record<string, string>,
  queuePrefix: (label: string) => string,
): RedisTestTopology {
  return {
    env,
    queuePrefix,
    config: (prefix) => loadConfig(RedisConfig, { ...env, QUEUE_PREFIX: prefix }),
    stop: () => processes.stopAll(),
  };
}

export interface RedisTestCluster extends RedisTestTopology {
  /** The primaries' ports. */
  readonly ports: readonly number[];
}

/**
 * A Redis Cluster of `primaries` primaries (no replicas) on free private
 * ports, built with `redis-cli --cluster create`, ready once every node says
 * `cluster_state:ok`.
 */
export async function startRedisCluster(primaries = 3): Promise<RedisTestCluster> {
  const processes = new RedisProcesses();
  try {
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
          ],
          port,
        ),
      );
    }
    await run(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      { timeout: 30_000 },
    );
    for (const port of ports)
      await reached(`cluster_state:ok on ${port}`, async () =>
        (await redisCli(port, 'CLUSTER', 'INFO')).includes('cluster_state:ok'),
      );
    const env = { REDIS_CLUSTER_NODES: ports.map((port) => `127.0.0.1:${port}`).join(',') };
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
 * replicas are in sync and every Sentinel knows them and the others.
 */
export async function startRedisSentinel(replicas = 1): Promise<RedisTestSentinel> {
  const master = 'genhub-test';
  const processes = new RedisProcesses();
  try {
    const primary = await processes.start(SERVER_ARGS);
    const replicaPorts: number[] = [];
    for (let i = 0; i < replicas; i++)
      replicaPorts.push(
        await processes.start([...SERVER_ARGS, '--replicaof', '127.0.0.1', String(primary)]),
      );
    for (const port of replicaPorts)
      await reached(`replica ${port} in sync`, async () =>
        (await redisCli(port, 'INFO', 'replication')).includes('master_link_status:up'),
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
          '',
        ].join('\n'),
      );
      sentinels.push(await processes.start([file, '--sentinel'], port));
    }
    for (const port of sentinels)
      await reached(`sentinel ${port} to know the replicas and the other sentinels`, async () => {
        const known = await redisCli(port, 'SENTINEL', 'MASTER', master);
        const field = (name: string) =>
          Number(known.split('\n')[known.split('\n').indexOf(name) + 1]);
        return field('num-slaves') === replicas && field('num-other-sentinels') === 2;
      });
    const primaryPort = async () =>
      Number(
        (await redisCli(sentinels[0], 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', master)).split(
          '\n',
        )[1],
      );
    const env = {
      REDIS_SENTINELS: sentinels.map((port) => `127.0.0.1:${port}`).join(','),
      REDIS_SENTINEL_MASTER: master,
    };
    return {
      ...topology(processes, env, (label) => testQueuePrefix(label)),
      master,
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
              (await redisCli(promoted, 'ROLE')).startsWith('master') &&
              // Every Sentinel agrees, so a client asking any of them finds the new primary.
              (
                await Promise.all(
                  sentinels.map((port) =>
                    redisCli(port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', master),
                  ),
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
