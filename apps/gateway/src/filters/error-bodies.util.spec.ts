import { APP_ERRORS, AppErrorCode, AppException } from '@genhub/errors';
import { errorBody, httpStatus } from './error-bodies.util';
import { responseFamily } from './response-family.util';

describe('errorBody', () => {
  it('routes URLs to their family', () => {
    expect(responseFamily('/v1/chat/completions')).toBe('chat');
    expect(responseFamily('/v1/models?x=1')).toBe('chat');
    expect(responseFamily('/v1/models/local/chat')).toBe('chat');
    expect(responseFamily('/v1/modelsx')).toBe('v1');
    expect(responseFamily('/v1/balance')).toBe('v1');
    expect(responseFamily('/api/v3/models')).toBe('v3');
    expect(responseFamily('/admin/v1/accounts')).toBe('admin');
    expect(responseFamily('/replicate/v1/predictions?cursor=x')).toBe('replicate');
    expect(responseFamily('/replicatex')).toBe('v1');
    expect(responseFamily('/elsewhere')).toBe('v1');
    expect(responseFamily('/v1/images/generations')).toBe('media');
    expect(responseFamily('/v1/audio/speech?x=1')).toBe('media');
    expect(responseFamily('/v1/audio/transcriptions')).toBe('media');
    // A task model under a provider named like a media route stays a /v1 submit.
    expect(responseFamily('/v1/audio/speech/text-to-speech')).toBe('v1');
  });

  it('answers the media routes in OpenAI’s shape with its code, authentication aside', () => {
    const body = (code: AppErrorCode, details = {}) =>
      errorBody('media', new AppException(code, details));
    expect(body(AppErrorCode.InsufficientBalance)).toEqual({
      error: {
        message: 'Insufficient balance',
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      },
    });
    expect(body(AppErrorCode.ModelNotFound, { param: 'model' })).toEqual({
      error: {
        message: 'The model does not exist',
        type: 'invalid_request_error',
        param: 'model',
        code: 'model_not_found',
      },
    });
    expect(body(AppErrorCode.ScopeNotAllowed)).toMatchObject({
      error: { type: 'permission_error', code: 'scope_not_allowed' },
    });
    expect(body(AppErrorCode.SyncWaitExpired)).toMatchObject({
      error: { type: 'server_error', code: 'sync_wait_expired' },
    });
    expect(body(AppErrorCode.InvalidApiKey)).toEqual({
      code: 401,
      error: 'Invalid or revoked API key',
    });
    for (const code of Object.values(AppErrorCode))
      expect(errorBody('media', new AppException(code))).toBeDefined();
  });

  it('gives every catalogue code a body in every family', () => {
    for (const code of Object.values(AppErrorCode)) {
      const error = new AppException(code);
      const status = APP_ERRORS[code].status;
      expect(errorBody('v3', error)).toEqual({ code: status, message: error.message, data: null });
      expect(errorBody('admin', error)).toEqual({ code: status, error: error.message });
      expect(errorBody('v1', error)).toHaveProperty('code', status);
      expect(errorBody('chat', error)).toBeDefined();
    }
  });

  it('answers the replicate family in Replicate’s problem shape, bad input as 422', () => {
    for (const code of Object.values(AppErrorCode)) {
      const error = new AppException(code);
      const body = errorBody('replicate', error) as { title: string; status: number };
      expect(body).toEqual({
        title: expect.any(String),
        detail: error.message,
        status: body.status,
      });
      expect(body.status).toBe(httpStatus(error, 'replicate'));
      expect(body.title).not.toBe('');
    }
    const invalid = new AppException(AppErrorCode.InvalidRequest, { message: 'input is required' });
    expect([httpStatus(invalid), httpStatus(invalid, 'replicate')]).toEqual([400, 422]);
    expect(errorBody('replicate', new AppException(AppErrorCode.InsufficientBalance))).toEqual({
      title: 'Insufficient credit',
      detail: 'Insufficient balance',
      status: 402,
    });
  });

  it('nests exactly the unknown provider, insufficient balance and key spend limit on /v1/', () => {
    const nested = Object.values(AppErrorCode).filter(
      (code) =>
        typeof (errorBody('v1', new AppException(code)) as { error: unknown }).error === 'object',
    );
    expect(nested.sort()).toEqual([
      'insufficient_balance',
      'key_spend_limit_reached',
      'unknown_provider',
    ]);
    expect(errorBody('v1', new AppException(AppErrorCode.InsufficientBalance))).toEqual({
      code: 402,
      error: { code: 1300, error: 'Insufficient balance' },
    });
  });

  it('answers chat authentication refusals in {code, error} and the rest in the chat shape', () => {
    for (const code of [
      AppErrorCode.MissingAuthorization,
      AppErrorCode.InvalidAuthorizationFormat,
      AppErrorCode.InvalidApiKey,
      AppErrorCode.AccountSuspended,
    ]) {
      const error = new AppException(code);
      expect(errorBody('chat', error)).toEqual({ code: httpStatus(error), error: error.message });
    }
    expect(
      errorBody('chat', new AppException(AppErrorCode.InvalidRequest, { fields: ['messages'] })),
    ).toEqual({
      error: { message: 'Invalid request', type: 'invalid_request_error', param: 'messages' },
    });
  });
});
