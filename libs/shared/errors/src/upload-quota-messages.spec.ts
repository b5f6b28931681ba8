import {
  APP_ERRORS,
  formatBytes,
  uploadDailyLimitMessage,
  uploadQuotaExceededMessage,
} from './app-error-codes.constants';

describe('upload quota refusals', () => {
  it('have statuses of their own: 413 for stored bytes, 429 for uploads per day', () => {
    expect(APP_ERRORS.upload_quota_exceeded).toMatchObject({ status: 413, transient: false });
    expect(APP_ERRORS.upload_daily_limit_reached).toMatchObject({ status: 429, transient: false });
  });

  it('write sizes in binary units, at most two decimals', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1023)).toBe('1023 bytes');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(20 * 1024 ** 2)).toBe('20 MB');
    expect(formatBytes(10 * 1024 ** 3)).toBe('10 GB');
    expect(formatBytes(10 * 1024 ** 3 - 1)).toBe('10 GB');
    expect(formatBytes(9.99 * 1024 ** 3)).toBe('9.99 GB');
  });

  it('say the limit, what is held, and the file when known', () => {
    const base =
      'Upload storage quota exceeded: the unexpired uploads of this account may hold 10 GB (9.5 GB held now)';
    expect(uploadQuotaExceededMessage(10 * 1024 ** 3, 9.5 * 1024 ** 3)).toBe(base);
    expect(
      uploadQuotaExceededMessage(10 * 1024 ** 3, 9.5 * 1024 ** 3, { bytes: 600 * 1024 ** 2 }),
    ).toBe(`${base}; this file is 600 MB`);
    expect(
      uploadQuotaExceededMessage(10 * 1024 ** 3, 9.5 * 1024 ** 3, { leftBytes: 512 * 1024 ** 2 }),
    ).toBe(`${base}; this file is larger than the 512 MB left`);
    expect(uploadDailyLimitMessage(10000)).toBe(
      'Daily upload limit reached: at most 10000 uploads per account per day (UTC); more are accepted from 00:00 UTC',
    );
  });
});
