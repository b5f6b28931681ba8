import { AppErrorCode } from '@genhub/errors';
import { FAMILY_ERRORS, type RouteErrorCode, routeErrorStatuses } from './api-route.decorator';
import { ERROR_RESPONSE_NAMES } from './error-responses.constants';

describe('the error statuses of a route, derived from the catalogue', () => {
  it('gives every route its family’s errors: the guard’s refusals and the unexpected error', () => {
    expect(routeErrorStatuses('v1')).toEqual([401, 403, 500]);
    expect(routeErrorStatuses('v3')).toEqual([401, 403, 500]);
    expect(routeErrorStatuses('chat')).toEqual([401, 403, 500]);
    // 404: every admin route while ADMIN_TOKEN is unset.
    expect(routeErrorStatuses('admin')).toEqual([401, 404, 500]);
  });

  it('adds the statuses of the route’s own codes once each, ascending', () => {
    expect(
      routeErrorStatuses('v3', [
        AppErrorCode.UploadDailyLimitReached,
        AppErrorCode.PayloadTooLarge,
        AppErrorCode.UploadQuotaExceeded,
        AppErrorCode.InvalidRequest,
      ]),
    ).toEqual([400, 401, 403, 413, 429, 500]);
    expect(
      routeErrorStatuses('chat', [
        AppErrorCode.ServiceUnavailable,
        AppErrorCode.ModelNotFound,
        AppErrorCode.InsufficientBalance,
      ]),
    ).toEqual([401, 402, 403, 404, 500, 503]);
  });

  it('documents only statuses its family has a response for', () => {
    for (const family of ['v1', 'v3', 'chat', 'admin'] as const)
      for (const status of routeErrorStatuses(family))
        expect(ERROR_RESPONSE_NAMES[family]).toHaveProperty(String(status));
    expect(FAMILY_ERRORS.admin).not.toContain(AppErrorCode.AccountSuspended);
    // The compiler refuses a code whose status the family does not document.
    // @ts-expect-error 409 has no `/v1/` response
    const conflict: RouteErrorCode<'v1'> = AppErrorCode.Conflict;
    // @ts-expect-error 402 has no admin response
    const balance: RouteErrorCode<'admin'> = AppErrorCode.InsufficientBalance;
    expect([conflict, balance]).toHaveLength(2);
  });
});
