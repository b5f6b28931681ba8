import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'billing', name: 'balances' })
export class BalanceEntity {
  @PrimaryColumn('uuid', { name: 'account_id' }) accountId!: string;
  @Column('text') currency!: 'USD' | 'CNY';
  @Column('bigint', { name: 'balance_units' }) balanceUnits!: number;
  @Column('bigint', { name: 'reserved_units' }) reservedUnits!: number;
  @Column('bigint', { name: 'record_count' }) recordCount!: number;
  @Column('bigint', { name: 'topup_count' }) topupCount!: number;
  @Column('bigint', { name: 'usage_count' }) usageCount!: number;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}
