import { Column, Entity, PrimaryColumn } from 'typeorm';

export type DeliveryStatus = 'pending' | 'delivered' | 'abandoned';

@Entity({ schema: 'webhooks', name: 'deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryColumn('uuid', { name: 'task_id' }) taskId!: string;
  @Column('uuid', { name: 'account_id' }) accountId!: string;
  @Column('text') url!: string;
  @Column('text') status!: DeliveryStatus;
  @Column('integer') attempts!: number;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
  @Column('timestamptz', { name: 'delivered_at', nullable: true }) deliveredAt!: Date | null;
}
