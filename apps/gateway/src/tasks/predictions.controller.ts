import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  ApiKeyGuard,
  assertModelAllowed,
  AuthenticatedAccount,
  CurrentAccount,
  RequiresScope,
} from '@genhub/accounts-feature';
import {
  type ApiEnvelopeDto,
  envelope,
  ListTasksQueryDto,
  type PredictionDto,
  PredictionResponseDto,
  type RawQuery,
  SubmitTaskQueryDto,
  type TaskListPageDto,
  TaskListResponseDto,
  taskFinishedCallback,
  V3Route,
} from '@genhub/contracts/server';
import { AppErrorCode, AppException, TaskCode } from '@genhub/errors';
import {
  GetResultUseCase,
  ListTasksUseCase,
  predictionOfAck,
  predictionOfSyncResult,
  predictionOfTask,
} from '@genhub/tasks-feature';
import { SubmitTaskUseCase, SyncSubmitUseCase } from '@genhub/task-engine';
import { PublicLinks } from '../transport/public-links.service';
import { SubmitRequestDocs, submitInput } from './submit-request.util';

/** The WaveSpeed v3 body carries the sync switch beside the model input. */
const SYNC_FIELD = 'enable_sync_mode';

/** The model input without the v3 switch, and whether it asked for a sync wait. */
function splitSyncSwitch(body: unknown): { input: unknown; sync: boolean } {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !(SYNC_FIELD in body))
    return { input: body, sync: false };
  const { [SYNC_FIELD]: sync, ...input } = body as Record<string, unknown>;
  if (sync !== undefined && typeof sync !== 'boolean')
    throw new AppException('invalid_request', {
      message: `${SYNC_FIELD} must be a boolean`,
      fields: [SYNC_FIELD],
    });
  return { input, sync: sync === true };
}

/**
 * The WaveSpeed v3 task routes, so the vendor's official SDKs work unmodified
 * (decision 0111): a second transport over the same use-cases as `/v1`
 * (one validation, one billing path, one error catalogue), answering in the
 * `/api/v3` envelope with the task as the vendor shapes it.
 */
@Controller('api/v3')
@UseGuards(ApiKeyGuard)
export class PredictionsController {
  constructor(
    private readonly submit: SubmitTaskUseCase,
    private readonly syncSubmit: SyncSubmitUseCase,
    private readonly getResult: GetResultUseCase,
    private readonly listTasks: ListTasksUseCase,
    private readonly links: PublicLinks,
  ) {}

  @Post(':provider_id/:model_id/:run_type')
  @RequiresScope('tasks:write')
  @HttpCode(200)
  @V3Route({
    operationId: 'submitPrediction',
    tag: 'Tasks',
    summary: 'Submit a task (WaveSpeed v3 form)',
    description: `The same submit as \`POST /v1/{provider_id}/{model_id}/{run_type}\` (same input schemas, price, webhook and \`Idempotency-Key\`), answered in the envelope with the task as WaveSpeed’s v3 API shapes it. \`"enable_sync_mode": true\` in the body waits for the result like \`sync=true\`; a wait that runs out answers \`status: processing\`, \`code: ${TaskCode.Timeout}\` and an error starting \`Sync mode timed out\`.`,
    ok: { description: 'The task.', type: PredictionResponseDto },
    errors: [
      AppErrorCode.InvalidRequest,
      AppErrorCode.InsufficientBalance,
      AppErrorCode.NotFound,
      AppErrorCode.ScopeNotAllowed,
      AppErrorCode.ModelNotAllowed,
    ],
    operation: { callbacks: taskFinishedCallback('submitPrediction') },
  })
  @SubmitRequestDocs()
  @ApiBody({
    required: true,
    description: 'The model input, plus `enable_sync_mode` (boolean) to wait for the result.',
    schema: { $ref: '#/components/schemas/SubmitBody' },
  })
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('provider_id') provider: string,
    @Param('model_id') model: string,
    @Param('run_type') runType: string,
    @Query() query: RawQuery<SubmitTaskQueryDto>,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<ApiEnvelopeDto<PredictionDto>> {
    const { input: modelInput, sync } = splitSyncSwitch(body);
    const slug = { provider, model, runType };
    assertModelAllowed(account, `${provider}/${model}/${runType}`);
    const input = submitInput(account, slug, modelInput, query, request, idempotencyKey);
    const submittedAt = new Date();
    if (sync) {
      const result = await this.syncSubmit.execute(input);
      return envelope(
        predictionOfSyncResult(
          result,
          { model: `${provider}/${model}/${runType}`, createdAt: submittedAt },
          this.links.predictionResultUrl(request, result.id),
        ),
      );
    }
    const ack = await this.submit.execute(input);
    return envelope(
      predictionOfAck(
        ack,
        `${provider}/${model}/${runType}`,
        submittedAt,
        this.links.predictionResultUrl(request, ack.id),
      ),
    );
  }

  @Get('predictions')
  @RequiresScope('tasks:read')
  @V3Route({
    operationId: 'listTasks',
    tag: 'Tasks',
    summary: 'List your tasks',
    description:
      'The caller’s tasks, newest first (deleted ones never), filtered by `status`, `model` (slug or its start) and creation time; one page of `limit` (default 20, at most 100) at a time: pass `next_cursor` back as `cursor` for the next (null on the last page). Pages stay stable while new tasks arrive.',
    ok: { description: 'A page of tasks.', type: TaskListResponseDto },
    errors: [AppErrorCode.InvalidRequest],
  })
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Query() query: ListTasksQueryDto,
  ): Promise<ApiEnvelopeDto<TaskListPageDto>> {
    return envelope(await this.listTasks.execute({ accountId: account.id, query }));
  }

  @Get('predictions/:task_id/result')
  @RequiresScope('tasks:read')
  @V3Route({
    operationId: 'getPrediction',
    tag: 'Tasks',
    summary: 'Get a task (WaveSpeed v3 form)',
    description:
      'The task of `GET /v1/requests/{request_id}` in the envelope, as WaveSpeed’s v3 API shapes it: `created`/`processing` until `completed` or `failed`.',
    ok: { description: 'The task.', type: PredictionResponseDto },
    errors: [AppErrorCode.NotFound],
  })
  async result(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('task_id') id: string,
    @Req() request: FastifyRequest,
  ): Promise<ApiEnvelopeDto<PredictionDto>> {
    const { task } = await this.getResult.execute({ accountId: account.id, taskId: id });
    return envelope(predictionOfTask(task, this.links.predictionResultUrl(request, task.id)));
  }
}
