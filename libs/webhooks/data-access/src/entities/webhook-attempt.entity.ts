import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'webhooks', name: 'attempts' })
export class WebhookAttemptEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'task_id' }) taskId!: string;
  @Column('integer') attempt!: number;
  @Column('timestamptz', { name: 'started_at' }) startedAt!: Date;
  @Column('integer', { name: 'duration_ms' }) durationMs!: number;
  @Column('integer', { name: 'status_code', nullable: true }) statusCode!: number | null;
  @Column('text', { nullable: true }) error!: string | null;
}
