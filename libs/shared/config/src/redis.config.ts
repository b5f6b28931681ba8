import {
  IsBoolean,
  IsOptional,
  IsString,
  Matches,
  ValidateBy,
  ValidateIf,
  type ValidationArguments,
} from 'class-validator';
import { EmptyAsUnset, ToBool, ToList } from './env.decorator';
import { readPemBundle } from './pem-bundle.util';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
export const DEFAULT_SENTINEL_MASTER = 'mymaster';

/** `host:port`: a name, an IPv4 address or a bracketed IPv6 address. */
const HOST_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;
const HOST_PORT_LIST = { each: true, message: 'must be host:port pairs separated by commas' };

export interface RedisNode {
  host: string;
  port: number;
}

/** Credentials and TLS of the data nodes (and the Sentinels) with Sentinel or Cluster. */
export interface RedisNodeAuth {
  username?: string;
  password?: string;
  tls: boolean;
  /** PEM CA bundle the servers' certificates are checked against (else Node's own CAs). */
  ca?: string;
}

/** Where the apps find Redis: exactly one topology (decision 0120). */
export type RedisTopology =
  | { kind: 'standalone'; url: string; ca?: string }
  | {
      kind: 'sentinel';
      sentinels: RedisNode[];
      master: string;
      sentinelPassword?: string;
      auth: RedisNodeAuth;
    }
  | { kind: 'cluster'; nodes: RedisNode[]; auth: RedisNodeAuth };

function node(address: string): RedisNode {
  const at = address.lastIndexOf(':');
  return {
    host: address.slice(0, at).replace(/^\[(.*)\]$/, '$1'),
    port: Number(address.slice(at + 1)),
  };
}

/** The topology settings the operator gave, by variable name. */
function topologiesSet(config: RedisConfig): string[] {
  return [
    config.REDIS_URL !== undefined && 'REDIS_URL',
    config.REDIS_SENTINELS.length > 0 && 'REDIS_SENTINELS',
    config.REDIS_CLUSTER_NODES.length > 0 && 'REDIS_CLUSTER_NODES',
  ].filter((name): name is string => !!name);
}

/** A rule over the whole piece, with the reason it gives when broken. */
function Holds(
  name: string,
  rule: (config: RedisConfig, property: string) => boolean,
  reason: (config: RedisConfig, property: string) => string,
) {
  return ValidateBy({
    name,
    validator: {
      validate: (_value: unknown, args?: ValidationArguments) =>
        rule(args?.object as RedisConfig, args?.property ?? ''),
      defaultMessage: (args?: ValidationArguments) =>
        reason(args?.object as RedisConfig, args?.property ?? ''),
    },
  });
}

/** Only one of REDIS_URL, REDIS_SENTINELS and REDIS_CLUSTER_NODES. */
const OneTopology = () =>
  Holds(
    'oneRedisTopology',
    (config, property) => {
      const set = topologiesSet(config);
      return set.length <= 1 || !set.includes(property);
    },
    (config, property) =>
      `cannot be combined with ${topologiesSet(config)
        .filter((name) => name !== property)
        .join(' and ')}: set one Redis topology`,
  );

const isDistributed = (config: RedisConfig) =>
  config.REDIS_SENTINELS.length > 0 || config.REDIS_CLUSTER_NODES.length > 0;

/** Node credentials and TLS belong to Sentinel or Cluster; a standalone URL carries its own. */
const OnlyWhenDistributed = (standalone: string) =>
  Holds(
    'onlyWithSentinelOrCluster',
    isDistributed,
    () => `only applies with REDIS_SENTINELS or REDIS_CLUSTER_NODES (standalone: ${standalone})`,
  );

/** A rediss:// URL, or REDIS_TLS with Sentinel or Cluster. */
const usesTls = (config: RedisConfig) =>
  isDistributed(config) ? config.REDIS_TLS : /^rediss:/.test(config.REDIS_URL ?? '');

const OnlyWithTls = () =>
  Holds(
    'onlyWithTls',
    usesTls,
    () =>
      'only applies with TLS: a rediss:// REDIS_URL, or REDIS_TLS=true with Sentinel or Cluster',
  );

/** Why a CA bundle setting is unusable, or undefined when it is fine. */
function pemProblem(value: unknown): string | undefined {
  try {
    readPemBundle(String(value));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const PemBundle = () =>
  Holds(
    'pemBundle',
    (config) => pemProblem(config.REDIS_TLS_CA) === undefined,
    (config) => `must be a PEM CA bundle or the path of one: it ${pemProblem(config.REDIS_TLS_CA)}`,
  );

const OnlyWithSentinels = () =>
  Holds(
    'onlyWithSentinels',
    (config) => config.REDIS_SENTINELS.length > 0,
    () => 'only applies with REDIS_SENTINELS',
  );

/**
 * Where Redis is, as one of three topologies: a standalone server by URL
 * (the default), a primary found through Sentinel (ioredis follows its
 * failovers), or a Redis Cluster (ioredis `Cluster`, with a hash-tagged
 * QUEUE_PREFIX). The queue lib turns `topology` into connections.
 */
export class RedisConfig {
  /** Standalone Redis (`rediss://` for TLS); unset with no Sentinel or Cluster: redis://127.0.0.1:6379. */
  @EmptyAsUnset()
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'must be a redis:// URL' })
  @OneTopology()
  REDIS_URL?: string;

  /** Sentinels to ask for the primary of REDIS_SENTINEL_MASTER. */
  @ToList()
  @Matches(HOST_PORT, HOST_PORT_LIST)
  @OneTopology()
  REDIS_SENTINELS: string[] = [];

  /** The master group name the Sentinels monitor; default `mymaster`. */
  @EmptyAsUnset()
  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]{1,64}$/, {
    message: 'must be a master group name (letters, digits, . _ -)',
  })
  @OnlyWithSentinels()
  REDIS_SENTINEL_MASTER?: string;

  /** `requirepass` of the Sentinels themselves, when they have one. */
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  @OnlyWithSentinels()
  REDIS_SENTINEL_PASSWORD?: string;

  /** Seed nodes of a Redis Cluster (any few; the rest are discovered). */
  @ToList()
  @Matches(HOST_PORT, HOST_PORT_LIST)
  @OneTopology()
  REDIS_CLUSTER_NODES: string[] = [];

  /** ACL user of the data nodes with Sentinel or Cluster. */
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  @OnlyWhenDistributed('put it in REDIS_URL')
  REDIS_USERNAME?: string;

  /** Password of the data nodes with Sentinel or Cluster. */
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  @OnlyWhenDistributed('put it in REDIS_URL')
  REDIS_PASSWORD?: string;

  /** TLS to the data nodes and the Sentinels. */
  @ToBool()
  @IsBoolean()
  @ValidateIf((config: RedisConfig) => config.REDIS_TLS !== false)
  @OnlyWhenDistributed('use a rediss:// REDIS_URL')
  REDIS_TLS = false;

  /**
   * CA bundle the Redis servers' certificates (and the Sentinels') are checked
   * against, as a PEM file's path or the PEM text; unset: Node's public CAs.
   */
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  @PemBundle()
  @OnlyWithTls()
  REDIS_TLS_CA?: string;

  /**
   * Prefix of every BullMQ key and pub/sub channel; tests use their own. On a
   * Redis Cluster it must be a hash tag (`{genhub}`) so each queue's keys share
   * one slot, as BullMQ's scripts require.
   */
  @EmptyAsUnset()
  @Matches(/^(?:[A-Za-z0-9_-]{1,40}|\{[A-Za-z0-9_-]{1,40}\})$/, {
    message:
      'must be 1–40 letters, digits, - or _, optionally wrapped in {} (a Redis Cluster hash tag)',
  })
  @Holds(
    'hashTaggedOnCluster',
    (config) => !config.REDIS_CLUSTER_NODES.length || config.QUEUE_PREFIX.startsWith('{'),
    () =>
      "must be a hash tag such as {genhub} with REDIS_CLUSTER_NODES (each queue's keys must share one cluster slot)",
  )
  QUEUE_PREFIX = 'genhub';

  get topology(): RedisTopology {
    const ca = this.REDIS_TLS_CA === undefined ? undefined : readPemBundle(this.REDIS_TLS_CA);
    const auth = {
      username: this.REDIS_USERNAME,
      password: this.REDIS_PASSWORD,
      tls: this.REDIS_TLS,
      ca,
    };
    if (this.REDIS_SENTINELS.length)
      return {
        kind: 'sentinel',
        sentinels: this.REDIS_SENTINELS.map(node),
        master: this.REDIS_SENTINEL_MASTER ?? DEFAULT_SENTINEL_MASTER,
        sentinelPassword: this.REDIS_SENTINEL_PASSWORD,
        auth,
      };
    if (this.REDIS_CLUSTER_NODES.length)
      return { kind: 'cluster', nodes: this.REDIS_CLUSTER_NODES.map(node), auth };
    return { kind: 'standalone', url: this.REDIS_URL ?? DEFAULT_REDIS_URL, ca };
  }
}
