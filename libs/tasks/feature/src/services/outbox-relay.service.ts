import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { JOB_OPTIONS, JOB_QUEUE, JobItem, JobName, jobIdFor, QueueName } from '@genhub/queue';
import { OutboxItem, OutboxRepository } from '@genhub/tasks-data-access';

/** An outbox row for one job, with its deterministic id. */
export function outboxItem(job: JobItem): OutboxItem {
  return { jobName: job.name, jobId: jobIdFor(job.name, job.data.taskId), payload: job.data };
}

export const OUTBOX_POLL_MS = 200;
export const OUTBOX_BATCH = 200;
const ENQUEUE_TIMEOUT_MS = 5000;

/**
 * Moves outbox rows to BullMQ. Claims a batch with FOR UPDATE SKIP LOCKED (so
 * several relays share the work), adds each job under its deterministic id (a
 * re-sent row is a no-op), deletes the rows and commits. A crash or a Redis
 * outage between commit and enqueue loses nothing: the rows stay until a relay
 * has handed them over. Polls every OUTBOX_POLL_MS; `nudge()` right after a
 * commit makes the hand-over immediate.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly queues: Record<QueueName, Queue>;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = true;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxRepository,
    @InjectQueue(QueueName.Tasks) tasks: Queue,
    @InjectQueue(QueueName.Billing) billing: Queue,
    @InjectQueue(QueueName.Webhooks) webhooks: Queue,
  ) {
    this.queues = { tasks, billing, webhooks };
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Hand over what was just committed without waiting for the next poll. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.schedule(0);
  }

  private schedule(delay: number): void {
    this.timer = setTimeout(() => {
      this.running = this.drainAll().finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        const now = this.again;
        this.again = false;
        this.schedule(now ? 0 : OUTBOX_POLL_MS);
      });
    }, delay);
  }

  private async drainAll(): Promise<void> {
    try {
      while ((await this.drainOnce()) === OUTBOX_BATCH && !this.stopped);
    } catch (error) {
      this.logger.warn(`outbox relay: ${(error as Error).message}`);
    }
  }

  /** Hands one batch over; returns how many rows it moved. */
  async drainOnce(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await this.outbox.claim(manager, OUTBOX_BATCH);
      if (!rows.length) return 0;
      await withTimeout(
        Promise.all(
          rows.map((row) => {
            const name = row.jobName as JobName;
            return this.queues[JOB_QUEUE[name]].add(name, row.payload, {
              ...JOB_OPTIONS[name],
              jobId: row.jobId,
            });
          }),
        ),
        ENQUEUE_TIMEOUT_MS,
      );
      await this.outbox.remove(
        manager,
        rows.map((r) => r.id),
      );
      return rows.length;
    });
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`enqueue timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
