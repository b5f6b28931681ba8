import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeyAuthenticator } from '@genhub/accounts-feature';
import { EventsTokens } from '@genhub/tasks-feature';

interface EventsRequest extends FastifyRequest {
  eventsAccountId?: string;
}

/**
 * The event stream's two ways in: the API key as everywhere (a fetch-based
 * client), or, when no Authorization header is sent, the `token` query
 * parameter from `POST …/events/token` (a browser's `EventSource`, which
 * cannot send headers). Either way the refusal is the documented 401/403.
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
    request.eventsAccountId =
      request.headers.authorization === undefined && typeof token === 'string'
        ? this.tokens.accountFor(token, taskId)
        : (await this.apiKeys.authenticate(request.headers.authorization)).id;
    return true;
  }
}

/** The account the TaskEventsAuthGuard let in. */
export const EventsAccountId = createParamDecorator(
  (_: unknown, context: ExecutionContext): string =>
    context.switchToHttp().getRequest<EventsRequest>().eventsAccountId as string,
);
