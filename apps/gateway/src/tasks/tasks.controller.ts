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
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyGuard, AuthenticatedAccount, CurrentAccount } from '@genhub/accounts-feature';
import {
  type ApiEnvelopeDto,
  type DeleteTaskAnswerDto,
  envelope,
  type ListModelsQueryDto,
  type ModelEntryDto,
  type RawQuery,
  type SubmitAckDto,
  type SubmitTaskQueryDto,
  type TaskResultBody,
} from '@genhub/contracts/server';
import { AppException } from '@genhub/errors';
import {
  GetResultUseCase,
  ListModelsUseCase,
  SubmitTaskUseCase,
  SyncSubmitUseCase,
} from '@genhub/tasks-feature';
import { DeleteTaskUseCase } from '@genhub/task-flow';

function single(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw new AppException('invalid_request', {
      message: `Invalid ${name}: give it once`,
      fields: [name],
    });
  return value;
}

function parseSync(value: unknown): boolean {
  const raw = single(value, 'sync');
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1' || raw === '') return true;
  throw new AppException('invalid_request', {
    message: 'Invalid sync: must be true or false',
    fields: ['sync'],
  });
}

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

  @Post('v1/:provider/:model/:run_type')
  @HttpCode(200)
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('provider') provider: string,
    @Param('model') model: string,
    @Param('run_type') runType: string,
    // Parsed by hand (no DTO instance or validation on the hot path), typed by the contract's fields.
    @Query() query: RawQuery<SubmitTaskQueryDto>,
    // The model's input: validated by the submit use-case with the model kind's input DTO.
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<SubmitAckDto | TaskResultBody> {
    const input = {
      accountId: account.id,
      provider,
      model,
      runType,
      body,
      webhook: single(query.webhook, 'webhook'),
      prefix: single(query.prefix, 'prefix'),
      idempotencyKey,
      requestId: request.id,
    };
    return parseSync(query.sync) ? this.syncSubmit.execute(input) : this.submit.execute(input);
  }

  // Parameters carry their documented names: a refusal names the parameter.
  @Get('v1/requests/:request_id')
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
  @HttpCode(200)
  async remove(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('task_id') id: string,
  ): Promise<ApiEnvelopeDto<DeleteTaskAnswerDto>> {
    return envelope(await this.deleteTask.execute({ accountId: account.id, taskId: id }));
  }

  @Get('api/v3/models')
  models(@Query() query: RawQuery<ListModelsQueryDto>): ApiEnvelopeDto<ModelEntryDto[]> {
    return envelope(
      this.listModels.execute({
        category: single(query.category, 'category'),
        provider: single(query.provider, 'provider'),
        search: single(query.search, 'search'),
      }),
    );
  }
}
