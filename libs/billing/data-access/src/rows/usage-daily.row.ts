/** Rollup maintained with every capture, so usage queries never scan records. */
export class StoredUsageDaily {
  accountId!: string;
  day!: string;
  category!: string;
  tasks!: number;
  costUnits!: number;
}
