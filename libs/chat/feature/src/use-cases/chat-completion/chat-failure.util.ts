import { AppErrorCode, AppException } from '@genhub/errors';
import { ChatBackendError } from '@genhub/providers';

/**
 * A backend failure → the catalogue error the client sees: the upstream's
 * 400 is the client's to fix (its message and param kept); a refusal of our
 * credentials or an unreadable answer is 502; transient failures that
 * outlasted every route are 503. Anything else is a bug (500).
 */
export function chatFailure(error: unknown): unknown {
  if (!(error instanceof ChatBackendError)) return error;
  switch (error.kind) {
    case 'invalid_request':
      return new AppException(AppErrorCode.InvalidRequest, {
        message: error.message,
        ...(error.param ? { param: error.param } : {}),
      });
    case 'upstream_auth':
    case 'bad_response':
      return new AppException(AppErrorCode.UpstreamError);
    case 'transient':
    case 'aborted':
      return new AppException(AppErrorCode.ServiceUnavailable);
  }
}
