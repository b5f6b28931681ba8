import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RedisConfig } from '@genhub/config';
import { createRedisClient, type RedisClient } from '@genhub/queue';
import { SweepExpiredUploadsUseCase } from '@genhub/storage';

const EVERY_MS = 60 * 60 * 1000;
const LOCK_TTL_MS = 10 * 60 * 1000;

/**
 * Runs the upload sweep hourly in the gateway. Several gateway replicas may
 * run: a Redis lock (`SET NX PX`) lets one of them sweep per hour.
 */
@Injectable()
export class UploadRetentionScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(UploadRetentionScheduler.name);
  private timer?: NodeJS.Timeout;
  private redis?: RedisClient;

  constructor(
    private readonly sweep: SweepExpiredUploadsUseCase,
    private readonly config: RedisConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.redis = createRedisClient(this.config, { lazyConnect: true, maxRetriesPerRequest: 1 });
    this.redis.on('error', (error) => this.logger.warn(`redis: ${error.message}`));
    this.timer = setInterval(() => void this.runOnce(), EVERY_MS);
    this.timer.unref();
    setTimeout(() => void this.runOnce(), 30_000).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.redis?.disconnect();
  }

  /** Sweeps when this replica wins the lock; returns the number deleted, or undefined when skipped. */
  async runOnce(): Promise<number | undefined> {
    const lock = `${this.config.QUEUE_PREFIX}:lock:sweep-uploads`;
    try {
      const won = await this.redis?.set(lock, randomUUID(), 'PX', LOCK_TTL_MS, 'NX');
      if (won !== 'OK') return undefined;
      const deleted = await this.sweep.execute();
      if (deleted) this.logger.log(`deleted ${deleted} expired upload(s)`);
      return deleted;
    } catch (error) {
      this.logger.warn(`upload sweep failed: ${(error as Error).message}`);
      return undefined;
    }
  }
}
