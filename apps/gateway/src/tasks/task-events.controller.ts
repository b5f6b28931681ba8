import {
  Controller,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiQuery, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiKeyGuard,
  AuthenticatedAccount,
  CurrentAccount,
  RequiresScope,
} from '@genhub/accounts-feature';
import {
  type ApiEnvelopeDto,
  DeleteTaskAnswerDto,
  envelope,
  PredictionDto,
  type TaskEventsTokenDto,
  TaskEventsTokenResponseDto,
  TaskQueueEventDto,
  V3Route,
} from '@genhub/contracts/server';
import { AppErrorCode } from '@genhub/errors';
import { IssueEventsTokenUseCase, type TaskEvent, WatchTaskUseCase } from '@genhub/tasks-feature';
import {
  type EventStreamResponse,
  startEventStream,
} from '../transport/event-stream-response.util';
import { PublicLinks } from '../transport/public-links.service';
import { EventStreamRevocation } from './event-stream-revocation.service';
import {
  CurrentEventsCaller,
  type EventsCaller,
  TaskEventsAuthGuard,
} from './task-events-auth.guard';

/** How long a client waits before reconnecting a dropped stream. */
export const RECONNECT_MS = 2000;

const EVENTS_DESCRIPTION = [
  'Server-sent events for one of your tasks, from its current status on:',
  '',
  '- `created`, `processing`, then `completed` or `failed` (each with `id` 1, 2, 3 and the task as `data`, as `GET …/result` shows it but with its exact status), or `deleted` (`{id, status: "deleted"}`); a status that passes quicker than it can be read may be skipped, never repeated or reversed;',
  '- `queue` while the task waits: `{id, queue_position, estimated_start_ms}`, the tasks ahead of it under fair scheduling and when it should start, when it changes;',
  '- a comment line every 15 s as a heartbeat.',
  '',
  'The stream ends after the terminal event, or, without one, within seconds of the caller’s key being revoked, expiring or its account suspended. A client that reconnects with `Last-Event-ID` gets only what it has not seen; after the terminal event the answer is `204` (an `EventSource` then stops). Authenticate with the bearer header, or, from an `EventSource`, with the `token` of `POST …/events/token` (never the API key in a URL).',
].join('\n');

/**
 * Live task events (decision 0114): the stream itself, fed by the hub's
 * notices, and the short-lived token that lets an `EventSource` open it.
 */
@Controller('api/v3/predictions')
@ApiExtraModels(PredictionDto, DeleteTaskAnswerDto, TaskQueueEventDto)
export class TaskEventsController {
  constructor(
    private readonly issueToken: IssueEventsTokenUseCase,
    private readonly watchTask: WatchTaskUseCase,
    private readonly links: PublicLinks,
    private readonly revocation: EventStreamRevocation,
  ) {}

  @Post(':task_id/events/token')
  @HttpCode(200)
  @UseGuards(ApiKeyGuard)
  @RequiresScope('tasks:read')
  @V3Route({
    operationId: 'createTaskEventsToken',
    tag: 'Tasks',
    summary: 'Get a token for a task’s event stream',
    description:
      'For `EventSource`, which cannot send an Authorization header: a token that opens this task’s event stream (and nothing else) for five minutes, and the stream’s URL carrying it. The token works only while the key that asked for it does: revoked or expired, it is refused (401); its account suspended, 403; the key without `tasks:read`, 403.',
    ok: { description: 'The token and the stream URL.', type: TaskEventsTokenResponseDto },
    errors: [AppErrorCode.NotFound],
  })
  async token(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('task_id') id: string,
    @Req() request: FastifyRequest,
  ): Promise<ApiEnvelopeDto<TaskEventsTokenDto>> {
    const { token, expiresAt } = await this.issueToken.execute({
      accountId: account.id,
      apiKeyId: account.apiKeyId,
      taskId: id,
    });
    const url = `${this.links.origin(request)}/api/v3/predictions/${encodeURIComponent(id)}/events?token=${token}`;
    return envelope({ url, token, expires_at: expiresAt.toISOString() });
  }

  @Get(':task_id/events')
  @UseGuards(TaskEventsAuthGuard)
  @RequiresScope('tasks:read')
  @ApiQuery({
    name: 'token',
    required: false,
    type: String,
    description: 'The token of `POST …/events/token`, when no Authorization header is sent.',
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The `id` of the last event received: resumes after it.',
  })
  @V3Route({
    operationId: 'streamTaskEvents',
    tag: 'Tasks',
    summary: 'Follow a task live (server-sent events)',
    description: EVENTS_DESCRIPTION,
    ok: {
      description:
        'A `text/event-stream`; the schema is that of each event’s `data:` (the event name says which).',
      content: {
        'text/event-stream': {
          schema: {
            oneOf: [
              { $ref: getSchemaPath(PredictionDto) },
              { $ref: getSchemaPath(DeleteTaskAnswerDto) },
              { $ref: getSchemaPath(TaskQueueEventDto) },
            ],
          },
        },
      },
    },
    errors: [
      AppErrorCode.StreamTokenRefused,
      AppErrorCode.NotFound,
      AppErrorCode.TooManyStreams,
      AppErrorCode.ServiceUnavailable,
    ],
    operation: { security: [{ bearerAuth: [] }, { eventsToken: [] }] },
  })
  async events(
    @CurrentEventsCaller() caller: EventsCaller,
    @Param('task_id') id: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const stream = await this.watchTask.execute({
      accountId: caller.accountId,
      apiKeyId: caller.apiKeyId,
      taskId: id,
      lastEventId,
      resultUrl: this.links.predictionResultUrl(request, id),
    });
    if (!stream) {
      await reply.status(204).send();
      return;
    }
    // A client gone while the stream was opening would otherwise hold it until its task ends.
    if (reply.raw.destroyed) {
      await stream.return();
      return;
    }
    // A revocation heard while the stream was opening found nothing to end: checked now.
    this.revocation.opened(stream, caller.authenticatedAt, caller.expiresAt);
    const response = startEventStream(reply);
    reply.raw.on('close', () => void stream.return());
    response.retry(RECONNECT_MS);
    for await (const event of stream) write(response, event);
    response.end();
  }
}

function write(response: EventStreamResponse, event: TaskEvent): void {
  switch (event.type) {
    case 'heartbeat':
      return response.comment('heartbeat');
    case 'queue':
      return response.send({ event: 'queue', data: JSON.stringify(event.data) });
    case 'status':
      return response.send({
        event: event.name,
        id: String(event.stage),
        data: JSON.stringify(event.data),
      });
  }
}
