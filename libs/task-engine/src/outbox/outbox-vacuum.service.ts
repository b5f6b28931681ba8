import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OutboxRepository } from '@genhub/tasks-data-access';

/** Outbox rows one process deletes between two of its vacuums of the table. */
export const OUTBOX_VACUUM_ROWS = 10_000;

/**
 * Keeps the outbox small whatever autovacuum does (decision 0145). Each row
 * is deleted about 100 ms after its insert, so the table is nearly all dead
 * rows until a VACUUM, and the relay's poll reads all of them, five times a
 * second, in every relay: with autovacuum off, 70 ms a poll once 500,000 rows
 * had passed. After every `every` rows this process deleted, it vacuums the
 * table in the background, one vacuum at a time; the space it frees takes
 * the next rows, so the table stays at about the rows of one interval.
 */
@Injectable()
export class OutboxVacuum implements OnApplicationShutdown {
  private readonly logger = new Logger(OutboxVacuum.name);
  /** Rows deleted between vacuums; lowered by specs. */
  every = OUTBOX_VACUUM_ROWS;
  private deletedSince = 0;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxRepository,
  ) {}

  /** Counts rows this process deleted; starts a vacuum (not awaited) once `every` have gone. */
  deleted(rows: number): void {
    this.deletedSince += rows;
    if (this.deletedSince < this.every || this.running || this.stopped) return;
    this.deletedSince = 0;
    this.running = this.outbox
      .vacuum(this.dataSource.manager)
      .catch((error: Error) => this.logger.warn(`outbox vacuum: ${error.message}`))
      .finally(() => (this.running = undefined));
  }

  /** A vacuum under way finishes before the pool closes; none starts after. */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}
