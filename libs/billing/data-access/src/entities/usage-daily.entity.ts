import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Rollup maintained with every capture, so usage queries never scan records. */
@Entity({ schema: 'billing', name: 'usage_daily' })
export class UsageDailyEntity {
  @PrimaryColumn('uuid', { name: 'account_id' }) accountId!: string;
  @PrimaryColumn('date') day!: string;
  @PrimaryColumn('text') category!: string;
  @Column('bigint') tasks!: number;
  @Column('bigint', { name: 'cost_units' }) costUnits!: number;
}
