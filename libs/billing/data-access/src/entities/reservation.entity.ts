import { Column, Entity, PrimaryColumn } from 'typeorm';

export type ReservationState = 'open' | 'captured' | 'released';

@Entity({ schema: 'billing', name: 'reservations' })
export class ReservationEntity {
  @PrimaryColumn('uuid', { name: 'task_id' }) taskId!: string;
  @Column('uuid', { name: 'account_id' }) accountId!: string;
  @Column('bigint', { name: 'amount_units' }) amountUnits!: number;
  @Column('text') model!: string;
  @Column('text') category!: string;
  @Column('text') state!: ReservationState;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'settled_at', nullable: true }) settledAt!: Date | null;
}
