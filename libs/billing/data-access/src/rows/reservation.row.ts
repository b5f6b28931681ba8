export type ReservationState = 'open' | 'captured' | 'released';

/** A row of `billing.reservations` (the migration is the schema; this is its shape in code). */
export class StoredReservation {
  taskId!: string;
  accountId!: string;
  amountUnits!: number;
  model!: string;
  category!: string;
  state!: ReservationState;
  createdAt!: Date;
  settledAt!: Date | null;
}
