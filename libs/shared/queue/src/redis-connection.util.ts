import type { ConnectionOptions, Queue } from 'bullmq';
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import type { RedisConfig, RedisTopology } from '@genhub/config';

/**
 * The one place Redis connections are made (decision 0120): every BullMQ
 * queue, worker, QueueEvents and flow producer, the pub/sub connections, the
 * locks, the admin CLI and the test helpers get them from here, for any of
 * the three topologies of `RedisConfig`.
 */
export type RedisClient = Redis | Cluster;

/** ioredis options as BullMQ also takes them (its types know no `retryStrategy: null`; we set none). */
export type NodeOptions = Omit<RedisOptions, 'retryStrategy'>;

/** Options that tune a connection without choosing where it goes. */
export type RedisTuning = Pick<
  RedisOptions,
  'maxRetriesPerRequest' | 'lazyConnect' | 'connectionName' | 'enableOfflineQueue'
>;

/**
 * Node's TLS options for a Redis server or Sentinel: the CA bundle if one is
 * given (else Node's public CAs). Certificate and host-name checks stay on:
 * Node checks the name (or IP) the connection was opened to.
 */
function tlsOptions(ca: string | undefined): NonNullable<RedisOptions['tls']> {
  return ca === undefined ? {} : { ca };
}

/** ioredis options of a standalone URL (the same fields ioredis itself reads from it). */
function standaloneOptions(url: string, ca?: string): NodeOptions {
  const u = new URL(url);
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === 'rediss:' ? tlsOptions(ca) : undefined,
  };
}

/**
 * ioredis options for a standalone or Sentinel connection; for a Cluster, the
 * options of each node connection (`redisOptions`).
 */
export function redisOptions(topology: RedisTopology, tuning: RedisTuning = {}): NodeOptions {
  if (topology.kind === 'standalone')
    return { ...standaloneOptions(topology.url, topology.ca), ...tuning };
  const { username, password, tls, ca } = topology.auth;
  const nodes: NodeOptions = {
    username,
    password,
    tls: tls ? tlsOptions(ca) : undefined,
    ...tuning,
  };
  if (topology.kind === 'cluster') return nodes;
  return {
    ...nodes,
    // ioredis asks the Sentinels for the primary at every (re)connection and
    // checks the role of what it reached, so a failover is a reconnection.
    sentinels: topology.sentinels,
    name: topology.master,
    sentinelPassword: topology.sentinelPassword,
    enableTLSForSentinelMode: tls,
    sentinelTLS: tls ? tlsOptions(ca) : undefined,
  };
}

function clusterOptions(topology: RedisTopology, tuning: RedisTuning): ClusterOptions {
  const tls = topology.kind === 'cluster' && topology.auth.tls;
  return {
    redisOptions: redisOptions(topology, tuning),
    lazyConnect: tuning.lazyConnect,
    enableOfflineQueue: tuning.enableOfflineQueue,
    // ioredis resolves seed names to addresses before connecting, and TLS would
    // then check the certificate against the address: keep the names.
    ...(tls ? { dnsLookup: keepName } : {}),
  };
}

/** A `dnsLookup` that resolves nothing: the connection goes to the name itself. */
function keepName(address: string, callback: (error: null, address: string) => void): void {
  callback(null, address);
}

/** A new ioredis client of the configured topology (`Cluster` on a Redis Cluster). */
export function createRedisClient(config: RedisConfig, tuning: RedisTuning = {}): RedisClient {
  const topology = config.topology;
  if (topology.kind === 'cluster')
    return new Cluster(topology.nodes, clusterOptions(topology, tuning));
  return new Redis(redisOptions(topology, tuning));
}

/** BullMQ workers block (BZPOPMIN) and must retry forever: BullMQ refuses anything else. */
const BULLMQ_TUNING: RedisTuning = { maxRetriesPerRequest: null };

/**
 * BullMQ's `connection` for one queue, worker, QueueEvents or flow producer.
 * Standalone and Sentinel: options, from which BullMQ opens (and closes) its
 * own connections. Cluster: a `Cluster` client for this one user, which
 * BullMQ counts as shared and `close()` leaves open: end it with
 * `closeQueue` (Nest queues: `forceDisconnectOnShutdown`).
 */
export function bullConnection(config: RedisConfig): ConnectionOptions {
  const topology = config.topology;
  if (topology.kind === 'cluster') return createRedisClient(config, BULLMQ_TUNING);
  return redisOptions(topology, BULLMQ_TUNING);
}

/** BullMQ options of a standalone Redis URL (tests that reach the machine's Redis directly). */
export function redisConnection(url: string): NodeOptions {
  return redisOptions({ kind: 'standalone', url }, BULLMQ_TUNING);
}

/**
 * Closes a queue. BullMQ closes the connections it opened from options; a
 * client given to it (a Cluster from `bullConnection`, or an ioredis client a
 * caller made) it counts as shared and leaves open, so that one is ended here,
 * and only that one: disconnecting BullMQ's own closed connection can throw.
 */
export async function closeQueue(queue: Queue): Promise<void> {
  await queue.close();
  const connection: unknown = queue.opts.connection;
  if (
    (connection instanceof Redis || connection instanceof Cluster) &&
    connection.status !== 'end'
  ) {
    // Wait for its end, but not forever (a client that never connected may not say so).
    let timer: NodeJS.Timeout | undefined;
    const ended = new Promise((resolve) => {
      connection.once('end', resolve);
      timer = setTimeout(resolve, 1000);
    });
    connection.disconnect();
    await ended.finally(() => clearTimeout(timer));
  }
}

/** The primaries of a cluster, or the one server otherwise: where every key lives. */
export function primariesOf(client: RedisClient): Redis[] {
  return client instanceof Cluster ? client.nodes('master') : [client];
}
