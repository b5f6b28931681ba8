/** Rollup maintained with every capture, so usage queries never scan records. */
export class UsageDailyEntity {
  accountId!: string;
  day!: string;
  category!: string;
  tasks!: number;
  costUnits!: number;
}
