import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Job, Queue, Worker } from 'bullmq';
import { QueueName } from '@genhub/queue';
import { METRICS } from './metric-catalogue.constants';
import { MetricsService } from './metrics.service';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
/** Scrapes closer together than this reuse the last counts. */
const CACHE_MS = 1000;

/**
 * Queue depth per queue and state, read from BullMQ (getJobCounts) when
 * Prometheus scrapes, at most once a second. Needs the global QueueModule.
 */
@Injectable()
export class QueueDepthMetrics implements OnModuleInit {
  private readAt = 0;
  private pending?: Promise<void>;

  constructor(
    private readonly metrics: MetricsService,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    const queues = Object.values(QueueName).map((name) => ({
      name,
      queue: this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }),
    }));
    const refresh = (gauge: { set(labels: { queue: string; state: string }, v: number): void }) =>
      Promise.all(
        queues.map(async ({ name, queue }) => {
          const counts = await queue.getJobCounts(...STATES);
          for (const state of STATES) gauge.set({ queue: name, state }, counts[state] ?? 0);
        }),
      ).then(() => undefined);
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the gauge's collect gets its own `this`
    const self = this;
    this.metrics.gauge(METRICS.queueJobs, async function collect() {
      if (Date.now() - self.readAt < CACHE_MS) return;
      self.pending ??= refresh(this)
        .then(() => void (self.readAt = Date.now()))
        // Redis down: /ready says so; the last counts stay.
        .catch(() => undefined)
        .finally(() => (self.pending = undefined));
      await self.pending;
    });
  }
}

/**
 * Wait time (enqueue, after any delay → start) and run time (start → finish)
 * of every job a worker finishes, labelled with its queue.
 */
export function recordJobTimings(worker: Worker, metrics: MetricsService): void {
  const wait = metrics.histogram(METRICS.queueWait).labels(worker.name);
  const run = metrics.histogram(METRICS.queueRun);
  const completedRun = run.labels(worker.name, 'completed');
  const failedRun = run.labels(worker.name, 'failed');
  const observe = (job: Job | undefined, runChild: typeof completedRun) => {
    if (!job?.processedOn) return;
    const enqueued = job.timestamp + (job.opts.delay ?? 0);
    wait.observe(Math.max(0, job.processedOn - enqueued) / 1000);
    if (job.finishedOn) runChild.observe(Math.max(0, job.finishedOn - job.processedOn) / 1000);
  };
  worker.on('completed', (job) => observe(job, completedRun));
  worker.on('failed', (job) => observe(job, failedRun));
}
