import { AppErrorCode, AppException } from '@genhub/errors';

/** An inclusive range of UTC days, `YYYY-MM-DD`, and the `YYYY-MM` it is reported as. */
export interface DayRange {
  startDate: string;
  endDate: string;
  period: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;

function invalid(message: string, field: string): AppException {
  return new AppException(AppErrorCode.InvalidRequest, { message, fields: [field] });
}

/** A real calendar day (`2024-02-30` is refused), or undefined. */
export function parseDay(value: string): Date | undefined {
  const m = DAY.exec(value);
  if (!m) return undefined;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value && Number(m[1]) >= 1 ? date : undefined;
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function lastDayOfMonth(year: number, month: number): string {
  return isoDay(new Date(Date.UTC(year, month, 0)));
}

/**
 * The usage range rule (docs/interface.md, "Usage range"): `start_date`/`end_date`
 * are inclusive and, when either is given, replace `period`; a missing `end_date`
 * is today (UTC), a missing `start_date` is the first day of `end_date`'s month,
 * and the answer's period is the `YYYY-MM` of the range's start. Without either,
 * the range is `period` (default: the current UTC month). Anything malformed, or
 * a start after the end, is a 400.
 */
export function resolveDayRange(
  input: { period?: string; startDate?: string; endDate?: string },
  now: Date = new Date(),
): DayRange {
  if (input.startDate !== undefined || input.endDate !== undefined) {
    const end = input.endDate !== undefined ? parseDay(input.endDate) : parseDay(isoDay(now));
    if (!end) throw invalid('end_date must be a date in the form YYYY-MM-DD', 'end_date');
    const start =
      input.startDate !== undefined
        ? parseDay(input.startDate)
        : new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 1));
    if (!start) throw invalid('start_date must be a date in the form YYYY-MM-DD', 'start_date');
    if (start.getTime() > end.getTime())
      throw invalid('start_date must not be after end_date', 'start_date');
    return { startDate: isoDay(start), endDate: isoDay(end), period: isoDay(start).slice(0, 7) };
  }
  const period = input.period ?? isoDay(now).slice(0, 7);
  const m = MONTH.exec(period);
  const month = m ? Number(m[2]) : 0;
  if (!m || month < 1 || month > 12 || Number(m[1]) < 1)
    throw invalid('period must be a month in the form YYYY-MM', 'period');
  return {
    startDate: `${period}-01`,
    endDate: lastDayOfMonth(Number(m[1]), month),
    period,
  };
}
