/** `YYYY-MM-DD` of a date in UTC (the API's calendar). */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The most days one chart reads (one usage query per day). */
export const MAX_CHART_DAYS = 31;

/** Every day from `start` to `end` inclusive (`YYYY-MM-DD`), at most MAX_CHART_DAYS, the latest kept. */
export function daysBetween(start: string, end: string): string[] {
  const days: string[] = [];
  const last = new Date(`${end}T00:00:00Z`);
  for (let d = new Date(`${start}T00:00:00Z`); d <= last; d.setUTCDate(d.getUTCDate() + 1))
    days.push(isoDay(d));
  return days.slice(-MAX_CHART_DAYS);
}

/** Per category, its cost on each day (0 where it had none), categories sorted. */
export function costSeries(
  days: readonly string[],
  breakdowns: ReadonlyArray<Record<string, { cost: number }>>,
): { category: string; costs: number[] }[] {
  const categories = [...new Set(breakdowns.flatMap((b) => Object.keys(b)))].sort();
  return categories.map((category) => ({
    category,
    costs: days.map((_, i) => breakdowns[i]?.[category]?.cost ?? 0),
  }));
}
