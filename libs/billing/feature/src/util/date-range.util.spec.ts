import { APP_ERRORS, AppException } from '@genhub/errors';
import { parseDay, resolveDayRange } from './date-range.util';

const now = new Date('2025-03-17T23:59:59Z');

describe('resolveDayRange (docs/interface.md, "Usage range")', () => {
  it('defaults to the current UTC month', () => {
    expect(resolveDayRange({}, now)).toEqual({
      startDate: '2025-03-01',
      endDate: '2025-03-31',
      period: '2025-03',
    });
  });

  it('takes a period, leap years included', () => {
    expect(resolveDayRange({ period: '2024-02' }, now)).toEqual({
      startDate: '2024-02-01',
      endDate: '2024-02-29',
      period: '2024-02',
    });
    expect(resolveDayRange({ period: '2023-12' }, now).endDate).toBe('2023-12-31');
  });

  it('lets either date replace the period', () => {
    expect(resolveDayRange({ period: '2020-01', startDate: '2025-01-10' }, now)).toEqual({
      startDate: '2025-01-10',
      endDate: '2025-03-17',
      period: '2025-01',
    });
    expect(resolveDayRange({ period: '2020-01', endDate: '2024-11-20' }, now)).toEqual({
      startDate: '2024-11-01',
      endDate: '2024-11-20',
      period: '2024-11',
    });
    expect(resolveDayRange({ startDate: '2024-12-31', endDate: '2025-01-01' }, now)).toEqual({
      startDate: '2024-12-31',
      endDate: '2025-01-01',
      period: '2024-12',
    });
  });

  it.each([
    [{ period: '2025-13' }, 'period'],
    [{ period: '2025-3' }, 'period'],
    [{ period: 'March' }, 'period'],
    [{ startDate: '2025-02-30' }, 'start_date'],
    [{ startDate: '2025/02/01' }, 'start_date'],
    [{ endDate: '20250201' }, 'end_date'],
    [{ startDate: '2025-03-02', endDate: '2025-03-01' }, 'start_date'],
    [{ startDate: '2025-04-01' }, 'start_date'],
  ])('refuses %j with a 400 naming %s', (input, field) => {
    try {
      resolveDayRange(input, now);
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(AppException);
      expect(APP_ERRORS[(error as AppException).code].status).toBe(400);
      expect((error as AppException).details.fields).toEqual([field]);
    }
  });

  it('parses only real calendar days', () => {
    expect(parseDay('2024-02-29')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseDay('2023-02-29')).toBeUndefined();
    expect(parseDay('0000-01-01')).toBeUndefined();
  });
});
