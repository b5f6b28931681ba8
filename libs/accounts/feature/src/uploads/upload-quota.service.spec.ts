import type { UploadRepository, UploadUsage } from '@genhub/accounts-data-access';
import { UploadQuotaConfig } from '@genhub/config';
import { APP_ERRORS, AppException } from '@genhub/errors';
import { UploadQuotaService } from './upload-quota.service';

const GB = 1024 ** 3;

/** The repository's usage read, as the service sees it (its SQL is tested on PostgreSQL). */
function service(usage: Partial<UploadUsage>, config: Partial<UploadQuotaConfig> = {}) {
  const uploads = {
    usage: async () => ({ status: 'active', heldBytes: 0, uploadsToday: 0, ...usage }),
  } as unknown as UploadRepository;
  return new UploadQuotaService(uploads, Object.assign(new UploadQuotaConfig(), config));
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppException);
  const { code, message } = error as AppException;
  return { status: APP_ERRORS[code].status, code, message };
}

describe('UploadQuotaService.headroom (before a body is read)', () => {
  const now = new Date();

  it('answers what is left of the stored-bytes quota', async () => {
    expect(await service({ heldBytes: 4 * GB }).headroom('a', now)).toEqual({
      leftBytes: 6 * GB,
      limitBytes: 10 * GB,
      heldBytes: 4 * GB,
    });
  });

  it('0 is no quota: nothing bounds the stream, and no count', async () => {
    const unlimited = service(
      { heldBytes: 50 * GB, uploadsToday: 1_000_000 },
      { UPLOAD_QUOTA_BYTES: 0, UPLOAD_QUOTA_PER_DAY: 0 },
    );
    expect(await unlimited.headroom('a', now)).toEqual({
      leftBytes: Infinity,
      limitBytes: 0,
      heldBytes: 50 * GB,
    });
  });

  it('refuses at once: suspended (403), no uploads left today (429), quota full (413)', async () => {
    expect(await refusal(service({ status: 'suspended' }).headroom('a', now))).toEqual({
      status: 403,
      code: 'account_suspended',
      message: 'Account suspended',
    });
    expect(await refusal(service({ uploadsToday: 10_000 }).headroom('a', now))).toMatchObject({
      status: 429,
      code: 'upload_daily_limit_reached',
    });
    expect(await refusal(service({ heldBytes: 10 * GB }).headroom('a', now))).toEqual({
      status: 413,
      code: 'upload_quota_exceeded',
      message:
        'Upload storage quota exceeded: the unexpired uploads of this account may hold 10 GB (10 GB held now)',
    });
    expect(await refusal(service({ status: undefined }).headroom('a', now))).toMatchObject({
      status: 401,
    });
  });
});
