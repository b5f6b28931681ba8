import { WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Job } from 'bullmq';
import { QueuePrefixOwnership } from '@genhub/queue';
import { jobLogContext, withLogContext } from '../logging/log-context.util';
import { MetricsService } from '../metrics/metrics.service';
import { recordJobTimings } from '../metrics/queue-metrics.service';

/**
 * The skeleton every processor shares: each job handled inside its log
 * context (task and request ids on every line), the queue's wait and run
 * histograms, and on SIGTERM the jobs in flight finished before the database
 * pool and the queues close (Nest shuts the deepest modules down first).
 * A processor implements `handle` and, if it needs settings from
 * configuration (concurrency, locks), `configureWorker`. Processors are
 * declared with `autorun: false`: the worker starts taking jobs only once the
 * queue prefix is known to be this installation's (QueuePrefixOwnership).
 */
export abstract class ObservedWorkerHost
  extends WorkerHost
  implements OnApplicationBootstrap, OnModuleDestroy
{
  @Inject(QueuePrefixOwnership) private readonly ownership!: QueuePrefixOwnership;

  protected constructor(protected readonly metrics: MetricsService) {
    super();
  }

  /** Settings applied to the worker at bootstrap, before its timings are recorded. */
  protected configureWorker(): void {
    // Nothing by default: the @Processor options suffice.
  }

  onApplicationBootstrap(): void {
    if (this.worker.opts.autorun !== false)
      throw new Error(`${this.constructor.name} must be declared with autorun: false`);
    this.configureWorker();
    recordJobTimings(this.worker, this.metrics);
    // Connection errors (Redis away, a failover) as log lines, not raw stderr traces; it retries.
    const logger = new Logger(this.constructor.name);
    this.worker.on('error', (error) => logger.warn(`redis: ${error.message}`));
    void this.ownership
      .whenVerified()
      .then(() => this.worker.run())
      .catch((e: Error) => logger.error(`worker stopped: ${e.message}`));
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker.close();
  }

  process(job: Job, token?: string): Promise<unknown> {
    return withLogContext(jobLogContext(job.data ?? {}), () => this.handle(job, token));
  }

  /** One job: parse its payload, run the use-case, translate the answer. */
  protected abstract handle(job: Job, token?: string): Promise<unknown>;
}
