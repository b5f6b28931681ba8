import { Column, Entity, PrimaryColumn } from 'typeorm';

export type BillingRecordType = 'top-up' | 'usage';

@Entity({ schema: 'billing', name: 'records' })
export class BillingRecordEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'account_id' }) accountId!: string;
  @Column('bigint') seq!: number;
  @Column('bigint', { name: 'type_seq' }) typeSeq!: number;
  @Column('text') type!: BillingRecordType;
  @Column('bigint', { name: 'amount_units' }) amountUnits!: number;
  @Column('bigint', { name: 'balance_after_units' }) balanceAfterUnits!: number;
  @Column('text', { nullable: true }) model!: string | null;
  @Column('text', { nullable: true }) category!: string | null;
  @Column('uuid', { name: 'task_id', nullable: true }) taskId!: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}
