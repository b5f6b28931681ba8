import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  ApiKeyAuthenticator,
  assertScope,
  type AuthenticatedAccount,
} from '@genhub/accounts-feature';
import { AppErrorCode, AppException } from '@genhub/errors';
import { EventsTokens } from '@genhub/tasks-feature';

/** Who opens an event stream, and when they were let in (see EventStreamRevocation). */
export interface EventsCaller {
  accountId: string;
  /** The key of the Authorization header, or the key the token was issued to. */
  apiKeyId: string;
  /** Date.now() before the credential was read: a change after it is checked again. */
  authenticatedAt: number;
  /** When the key expires (its stream ends then); null: never. */
  expiresAt: Date | null;
}

interface EventsRequest extends FastifyRequest {
  eventsCaller?: EventsCaller;
}

/**
 * The event stream's two ways in: the API key as everywhere (a fetch-based
 * client), or, when no Authorization header is sent, the `token` query
 * parameter from `POST …/events/token` (a browser's `EventSource`, which
 * cannot send headers). Either way the refusal is the documented 401/403,
 * and a token is only as good as the key it was issued to: a revoked or
 * expired key makes it 401 `stream_token_refused`, a suspended account 403
 * (decision 0129), a key without `tasks:read` 403 `scope_not_allowed` (issue 37).
 */
@Injectable()
export class TaskEventsAuthGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeyAuthenticator,
    private readonly tokens: EventsTokens,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<EventsRequest>();
    const { token } = request.query as { token?: unknown };
    const { task_id: taskId } = request.params as { task_id: string };
    const authenticatedAt = Date.now();
    const account =
      request.headers.authorization === undefined && typeof token === 'string'
        ? await this.tokenHolder(token, taskId)
        : await this.apiKeys.authenticate(request.headers.authorization);
    assertScope(account, 'tasks:read');
    request.eventsCaller = {
      accountId: account.id,
      apiKeyId: account.apiKeyId,
      authenticatedAt,
      expiresAt: account.apiKeyLimits.expiresAt,
    };
    return true;
  }

  private async tokenHolder(token: string, taskId: string): Promise<AuthenticatedAccount> {
    const holder = this.tokens.holderOf(token, taskId);
    const account = await this.apiKeys.authenticateKeyId(holder.apiKeyId).catch((error) => {
      throw error instanceof AppException &&
        (error.code === AppErrorCode.InvalidApiKey || error.code === AppErrorCode.ApiKeyExpired)
        ? new AppException(AppErrorCode.StreamTokenRefused)
        : error;
    });
    if (account.id !== holder.accountId) throw new AppException(AppErrorCode.StreamTokenRefused);
    return account;
  }
}

/** The caller the TaskEventsAuthGuard let in. */
export const CurrentEventsCaller = createParamDecorator(
  (_: unknown, context: ExecutionContext): EventsCaller =>
    context.switchToHttp().getRequest<EventsRequest>().eventsCaller as EventsCaller,
);
