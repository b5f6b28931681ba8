import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiBody, ApiParam, ApiQuery } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AnyValidKey,
  ApiKeyGuard,
  assertModelAllowed,
  AuthenticatedAccount,
  CurrentAccount,
  RequiresScope,
} from '@genhub/accounts-feature';
import {
  type ApiEnvelopeDto,
  type DeleteTaskAnswerDto,
  DeleteTaskResponseDto,
  envelope,
  ListModelsQueryDto,
  type ModelEntryDto,
  ModelListResponseDto,
  type RawQuery,
  type SubmitAckDto,
  SubmitTaskQueryDto,
  type TaskResultBody,
  taskFinishedCallback,
  V1Route,
  V3Route,
} from '@genhub/contracts/server';
import { AppErrorCode } from '@genhub/errors';
import { parseSync, single, SubmitRequestDocs, submitInput } from './submit-request.util';
import { GetResultUseCase, ListModelsUseCase } from '@genhub/tasks-feature';
import { SubmitTaskUseCase, SyncSubmitUseCase } from '@genhub/task-engine';
import { DeleteTaskUseCase } from '@genhub/task-engine';
import { modelEntriesForKey } from './models-for-key.util';

/** The task endpoints: translate HTTP to use-case input and back, nothing more. */
@Controller()
@UseGuards(ApiKeyGuard)
export class TasksController {
  constructor(
    private readonly submit: SubmitTaskUseCase,
    private readonly syncSubmit: SyncSubmitUseCase,
    private readonly getResult: GetResultUseCase,
    private readonly deleteTask: DeleteTaskUseCase,
    private readonly listModels: ListModelsUseCase,
  ) {}

  @Post('v1/:provider_id/:model_id/:run_type')
  @RequiresScope('tasks:write')
  @HttpCode(200)
  @V1Route({
    operationId: 'submitTask',
    tag: 'Tasks',
    summary: 'Submit a task to any model',
    description:
      "The path is the model slug. The body is the model's input: the input schema of the model's kind (one component per kind, e.g. `SimulatorInput` for `local/simulator/test`; the per-model paths name theirs). A body that breaks the schema is answered 400 and nothing is charged.",
    ok: {
      description:
        'Without `sync`: the acknowledgement. With `sync=true`: the result object once the task is terminal, or `{id, status: "processing"}` after the synchronous wait (10 minutes).',
      schema: { $ref: '#/components/schemas/SubmitResponse' },
    },
    errors: [
      AppErrorCode.InvalidRequest,
      AppErrorCode.UnknownProvider,
      AppErrorCode.InsufficientBalance,
      AppErrorCode.ContentBlocked,
      AppErrorCode.NotFound,
      AppErrorCode.ScopeNotAllowed,
      AppErrorCode.ModelNotAllowed,
    ],
    operation: { callbacks: taskFinishedCallback('submitTask') },
  })
  @SubmitRequestDocs()
  @ApiBody({ required: true, schema: { $ref: '#/components/schemas/SubmitBody' } })
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('provider_id') provider: string,
    @Param('model_id') model: string,
    @Param('run_type') runType: string,
    // Parsed by hand (no DTO instance or validation on the hot path), typed by the contract's fields.
    @Query() query: RawQuery<SubmitTaskQueryDto>,
    // The model's input: validated by the submit use-case with the model kind's input DTO.
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<SubmitAckDto | TaskResultBody> {
    const slug = { provider, model, runType };
    assertModelAllowed(account, `${provider}/${model}/${runType}`);
    const input = submitInput(account, slug, body, query, request, idempotencyKey);
    return parseSync(query.sync) ? this.syncSubmit.execute(input) : this.submit.execute(input);
  }

  // Parameters carry their documented names: a refusal names the parameter.
  @Get('v1/requests/:request_id')
  @RequiresScope('tasks:read')
  @V1Route({
    operationId: 'getTaskResult',
    tag: 'Tasks',
    summary: 'Get a task result',
    description:
      'HTTP 200 for every state, failed tasks included: a failure is reported in `status` and `code`. While the task is not terminal the answer is `{id, status: "processing"}` with `Retry-After: 3`.',
    ok: {
      description: 'The task result.',
      headers: {
        'Retry-After': {
          description: 'Seconds before the next poll; present (3) while the task is not terminal.',
          schema: { type: 'integer', enum: [3] },
        },
      },
      schema: { $ref: '#/components/schemas/TaskResult' },
    },
    errors: [AppErrorCode.NotFound],
  })
  @ApiParam({ name: 'request_id', description: 'The `id` of the submit acknowledgement.' })
  async result(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('request_id') id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TaskResultBody> {
    const { body, retryAfter } = await this.getResult.execute({
      accountId: account.id,
      taskId: id,
    });
    if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
    return body;
  }

  @Delete('api/v3/predictions/:task_id')
  @RequiresScope('tasks:write')
  @HttpCode(200)
  @V3Route({
    operationId: 'deleteTask',
    tag: 'Tasks',
    summary: 'Delete or cancel a task',
    description:
      'Cancels a running task or deletes a finished one. Irreversible; output URLs become invalid immediately; processing that already occurred is not refunded.',
    ok: { description: 'The task is deleted.', type: DeleteTaskResponseDto },
    errors: [AppErrorCode.NotFound],
  })
  async remove(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('task_id') id: string,
  ): Promise<ApiEnvelopeDto<DeleteTaskAnswerDto>> {
    return envelope(await this.deleteTask.execute({ accountId: account.id, taskId: id }));
  }

  @Get('api/v3/models')
  @AnyValidKey()
  @V3Route({
    operationId: 'listModels',
    tag: 'Models',
    summary: 'List models',
    description:
      "The models the caller's key may run: with `allowed_models`, only the run types it admits.",
    ok: { description: 'The model entries.', type: ModelListResponseDto },
    errors: [AppErrorCode.InvalidRequest],
  })
  @ApiQuery({ type: ListModelsQueryDto })
  models(
    @CurrentAccount() account: AuthenticatedAccount,
    @Query() query: RawQuery<ListModelsQueryDto>,
  ): ApiEnvelopeDto<ModelEntryDto[]> {
    const entries = this.listModels.execute({
      category: single(query.category, 'category'),
      provider: single(query.provider, 'provider'),
      search: single(query.search, 'search'),
    });
    return envelope(modelEntriesForKey(account, entries));
  }
}
