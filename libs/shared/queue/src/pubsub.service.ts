import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { RedisConfig } from '@genhub/config';
import { PubSubChannel } from './queue.constants';
import { createRedisClient, type RedisClient } from './redis-connection.util';

type Handler = (message: string) => void;

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

  constructor(private readonly config: RedisConfig) {}

  private channel(name: PubSubChannel): string {
    return `${this.config.QUEUE_PREFIX}:${name}`;
  }

  private connect(): RedisClient {
    const redis = createRedisClient(this.config, { maxRetriesPerRequest: 1 });
    redis.on('error', (error) => this.logger.warn(`redis: ${error.message}`));
    return redis;
  }

  /** Readiness: the Redis server answers. */
  async ping(): Promise<void> {
    this.publisher ??= this.connect();
    await this.publisher.ping();
  }

  async publish(name: PubSubChannel, message: string): Promise<void> {
    this.publisher ??= this.connect();
    await this.publisher.publish(this.channel(name), message);
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
    await Promise.allSettled([this.publisher?.quit(), this.subscriber?.quit()]);
  }
}
