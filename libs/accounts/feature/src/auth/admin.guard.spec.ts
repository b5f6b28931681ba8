import { ExecutionContext } from '@nestjs/common';
import { AdminConfig } from '@genhub/config';
import { APP_ERRORS, AppException } from '@genhub/errors';
import { AdminGuard } from './admin.guard';

const context = (authorization?: string) =>
  ({
    switchToHttp: () => ({ getRequest: () => ({ headers: { authorization } }) }),
  }) as unknown as ExecutionContext;

function refusal(guard: AdminGuard, header?: string) {
  try {
    guard.canActivate(context(header));
  } catch (error) {
    expect(error).toBeInstanceOf(AppException);
    return {
      status: APP_ERRORS[(error as AppException).code].status,
      message: (error as AppException).message,
    };
  }
  throw new Error('expected a refusal');
}

describe('AdminGuard', () => {
  const token = 'admin-token-0123456789';
  const guard = new AdminGuard(Object.assign(new AdminConfig(), { ADMIN_TOKEN: token }));

  it('hides the admin API when ADMIN_TOKEN is unset', () => {
    const off = new AdminGuard(new AdminConfig());
    expect(refusal(off, `Bearer ${token}`)).toEqual({ status: 404, message: 'Not found' });
  });

  it('lets the right token through and refuses others with 401', () => {
    expect(guard.canActivate(context(`Bearer ${token}`))).toBe(true);
    expect(refusal(guard)).toEqual({ status: 401, message: 'Missing Authorization header' });
    expect(refusal(guard, token).status).toBe(401);
    expect(refusal(guard, `Bearer ${token}x`)).toEqual({
      status: 401,
      message: 'Invalid admin token',
    });
    expect(refusal(guard, 'Bearer short').status).toBe(401);
  });
});
