import { MAX_CONCURRENT_TASKS_LIMIT } from '@genhub/contracts';

/** What the operator's page says of a cap (the admin API's `max_concurrent_tasks`). */
export function capText(max: number | null): string {
  if (max === null) return 'no cap';
  return max === 1 ? '1 task at once' : `${max} tasks at once`;
}

/** Whether the cap field holds a whole number within the admin API's bounds (1–10000). */
export function validCap(text: string): boolean {
  const value = Number(text);
  return (
    text.trim() !== '' &&
    Number.isInteger(value) &&
    value >= 1 &&
    value <= MAX_CONCURRENT_TASKS_LIMIT
  );
}
