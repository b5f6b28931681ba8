import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { RedisConfig } from '@genhub/config';
import { PubSubChannel, pubSubChannelName } from './queue.constants';
import { createRedisClient, type RedisClient } from './redis-connection.util';
import { checkRedisCertificates } from './redis-tls-check.util';

type Handler = (message: string) => void;

/** Both within the readiness check's own 2 s, so that its answer can say why. */
const PING_MS = 1200;
const HANDSHAKE_MS = 500;
const QUIT_MS = 1000;

/**
 * How long `publishToListeners` skips a channel whose last publish reached
 * nobody; then one publish probes again.
 */
export const UNHEARD_SKIP_MS = 1000;

/** `promise`, or a rejection after `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One publisher and one subscriber connection per process, whatever the
 * number of listeners: a sync waiter or a cache costs a map entry, not a
 * connection. On a Redis Cluster both are `Cluster` clients: a PUBLISH
 * reaches every node over the cluster bus, and ioredis moves the subscription
 * to another node when its node goes (decision 0120).
 */
@Injectable()
export class PubSubService implements OnApplicationShutdown {
  private readonly logger = new Logger(PubSubService.name);
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly disconnectListeners = new Set<() => void>();
  private publisher?: RedisClient;
  private subscriber?: RedisClient;
  /** When a channel's last publish reached nobody (absent: it reached someone, or none yet). */
  private readonly unheardSince = new Map<PubSubChannel, number>();
  /** The clock `publishToListeners` goes by (tests move it). */
  now: () => number = () => performance.now();

  constructor(private readonly config: RedisConfig) {}

  private channel(name: PubSubChannel): string {
    return pubSubChannelName(this.config.QUEUE_PREFIX, name);
  }

  private connect(): RedisClient {
    const redis = createRedisClient(this.config, { maxRetriesPerRequest: 1 });
    redis.on('error', (error) => this.logger.warn(`redis: ${error.message}`));
    return redis;
  }

  /**
   * Readiness: the Redis server answers within `ms` (a Cluster that cannot
   * connect queues the command instead of failing it). When it does not and
   * a TLS handshake finds its certificate refused, that is the answer.
   */
  async ping(ms = PING_MS): Promise<void> {
    this.publisher ??= this.connect();
    try {
      await within(this.publisher.ping(), ms);
    } catch (error) {
      await checkRedisCertificates(this.config.topology, HANDSHAKE_MS);
      throw error;
    }
  }

  /** Publishes; resolves with the receivers Redis counted (on a Cluster: its node's only). */
  async publish(name: PubSubChannel, message: string): Promise<number> {
    this.publisher ??= this.connect();
    const receivers = await this.publisher.publish(this.channel(name), message);
    if (receivers > 0) this.unheardSince.delete(name);
    else this.unheardSince.set(name, this.now());
    return receivers;
  }

  /**
   * `publish` for a notice only listeners need (a hint with a safety net):
   * skipped for UNHEARD_SKIP_MS after a publish on the channel reached
   * nobody, then sent again as a probe, so a listener that subscribes is
   * heard from within about that long. On a Cluster a PUBLISH counts the
   * receivers of one node only: there every notice is sent.
   */
  async publishToListeners(name: PubSubChannel, message: string): Promise<void> {
    const since = this.unheardSince.get(name);
    if (
      since !== undefined &&
      this.config.topology.kind !== 'cluster' &&
      this.now() - since < UNHEARD_SKIP_MS
    )
      return;
    await this.publish(name, message);
  }

  /**
   * Returns an unsubscribe function; the last handler of a channel leaving
   * unsubscribes the connection from it, so Redis stops sending what nobody
   * here reads. SUBSCRIBE and UNSUBSCRIBE share one connection, so Redis
   * applies them in the order they were called.
   */
  async subscribe(name: PubSubChannel, handler: Handler): Promise<() => void> {
    const channel = this.channel(name);
    if (!this.subscriber) {
      this.subscriber = this.connect();
      this.subscriber.on('message', (ch: string, message: string) => {
        for (const h of this.handlers.get(ch) ?? []) h(message);
      });
      // ioredis subscribes again by itself; what was published meanwhile is lost.
      let readyBefore = false;
      let up = false;
      this.subscriber.on('ready', () => {
        if (readyBefore) for (const listener of this.reconnectListeners) listener();
        readyBefore = up = true;
      });
      this.subscriber.on('close', () => {
        if (up) for (const listener of this.disconnectListeners) listener();
        up = false;
      });
    }
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      // Redis down: forget the channel, so the next call subscribes again.
      await this.subscriber.subscribe(channel).catch((error: unknown) => {
        this.handlers.delete(channel);
        throw error;
      });
    }
    set.add(handler);
    const subscriber = this.subscriber;
    return () => {
      set.delete(handler);
      if (set.size || this.handlers.get(channel) !== set) return;
      this.handlers.delete(channel);
      subscriber
        .unsubscribe(channel)
        .catch((error: Error) => this.logger.warn(`unsubscribe ${channel}: ${error.message}`));
    };
  }

  /**
   * Calls `listener` whenever the subscriber connection is back after a loss:
   * notices published while it was down never arrive, so a listener that
   * relies on them re-reads what it watches. Returns the way to stop.
   */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /**
   * Calls `listener` when the subscriber connection, once up, is lost: from
   * then until onReconnect, notices may be missed. Returns the way to stop.
   */
  onDisconnect(listener: () => void): () => void {
    this.disconnectListeners.add(listener);
    return () => this.disconnectListeners.delete(listener);
  }

  async onApplicationShutdown(): Promise<void> {
    const clients = [this.publisher, this.subscriber].filter((c): c is RedisClient => !!c);
    await Promise.allSettled(clients.map((client) => within(client.quit(), QUIT_MS)));
    // A client that never reached Redis (down, a refused certificate) fails its QUIT and
    // would go on retrying: end it.
    for (const client of clients) if (client.status !== 'end') client.disconnect();
  }
}
