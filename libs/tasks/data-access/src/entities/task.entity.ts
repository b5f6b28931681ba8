import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { TaskStatus } from '../lifecycle/task-lifecycle';

/** Per-stage durations in milliseconds (interface.md, "timings"). */
export interface TaskTimings {
  queue_wait: number;
  worker_init: number;
  api_call: number;
  save: number;
  run_overhead: number;
  total: number;
}

@Entity({ schema: 'tasks', name: 'tasks' })
export class TaskEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'account_id' }) accountId!: string;
  @Column('text') model!: string;
  @Column('text') channel!: string;
  @Column('text') category!: string;
  @Column('text') status!: TaskStatus;
  @Column('jsonb') input!: Record<string, unknown>;
  @Column('text', { name: 'webhook_url', nullable: true }) webhookUrl!: string | null;
  @Column('text', { name: 'output_prefix', nullable: true }) outputPrefix!: string | null;
  @Column('bigint', { name: 'price_units' }) priceUnits!: number;
  @Column('integer', { nullable: true }) code!: number | null;
  @Column('text', { nullable: true }) error!: string | null;
  /** Output URLs, or the text of speech-to-text models. */
  @Column('jsonb', { nullable: true }) outputs!: string[] | null;
  /** Storage keys of the outputs (deleted with the task). */
  @Column('jsonb', { name: 'output_keys', nullable: true }) outputKeys!: string[] | null;
  @Column('jsonb', { nullable: true }) timings!: TaskTimings | null;
  @Column('integer') attempt!: number;
  @Column('integer', { name: 'time_limit_ms' }) timeLimitMs!: number;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'started_at', nullable: true }) startedAt!: Date | null;
  @Column('timestamptz', { name: 'finished_at', nullable: true }) finishedAt!: Date | null;
  @Column('timestamptz', { name: 'deleted_at', nullable: true }) deletedAt!: Date | null;
  @Column('text', { name: 'idempotency_key', nullable: true }) idempotencyKey!: string | null;
  @Column('text', { name: 'request_hash', nullable: true }) requestHash!: string | null;
}

@Entity({ schema: 'tasks', name: 'outbox' })
export class OutboxEntity {
  @PrimaryColumn('bigint') id!: number;
  @Column('text', { name: 'job_name' }) jobName!: string;
  @Column('text', { name: 'job_id' }) jobId!: string;
  @Column('jsonb') payload!: unknown;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

export const TASKS_ENTITIES = [TaskEntity, OutboxEntity];
