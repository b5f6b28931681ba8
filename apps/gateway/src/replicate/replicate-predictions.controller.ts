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
import { ApiBody, ApiHeader, ApiParam, ApiQuery } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  ApiKeyGuard,
  assertModelAllowed,
  AuthenticatedAccount,
  CurrentAccount,
  RequiresScope,
} from '@genhub/accounts-feature';
import {
  ReplicateCreatePredictionDto,
  ReplicatePredictionDto,
  ReplicatePredictionPageDto,
  ReplicateRoute,
} from '@genhub/contracts/server';
import {
  AppErrorCode,
  AppException,
  replicateInvalidVersionMessage,
  replicateModelHasVersionsMessage,
  replicateModelNotFoundMessage,
} from '@genhub/errors';
import { ModelCatalogue } from '@genhub/providers';
import {
  DeleteTaskUseCase,
  OPEN_STATUSES,
  SubmitTaskUseCase,
  SyncSubmitUseCase,
} from '@genhub/task-engine';
import { isTerminal, TaskRepository, type TaskStatus } from '@genhub/tasks-data-access';
import {
  ListTasksUseCase,
  type ReplicatePrediction,
  replicatePredictionOf,
  replicateVersionOf,
  slugOfReplicateVersion,
} from '@genhub/tasks-feature';
import { PublicLinks } from '../transport/public-links.service';
import { submitInput } from '../tasks/submit-request.util';
import {
  decodeListCursor,
  encodeListCursor,
  type ListTrail,
  nextTrail,
  parseCreateBody,
  parsePrefer,
  previousTrail,
  type ReplicateCreateBody,
} from './replicate-request.util';

/** Replicate's API root under the gateway: the client's `baseUrl` (decision 0137). */
export const REPLICATE_ROOT = 'replicate/v1';

/** A page of `GET /predictions`, as Replicate pages its lists. */
export interface ReplicatePage<T> {
  previous: string | null;
  next: string | null;
  results: T[];
}

/**
 * The Replicate-compatible prediction routes (decision 0137), so code written
 * for Replicate's official client runs against genhub with `baseUrl` and a
 * genhub key: a third transport over the same engine, ledger and keys as
 * `/v1` and `/api/v3` (one validation, one billing path, one error catalogue
 * answered in Replicate's problem shape). A Replicate `owner/name` is a
 * genhub `provider/model`; a version is one of its run types.
 */
/** Created or processing: what a cancel deletes, and what a create answers as `starting`. */
const isOpen = (status: TaskStatus): boolean => OPEN_STATUSES.includes(status);

/** What both create routes take besides their body. */
const PREFER_HEADER = ApiHeader({
  name: 'prefer',
  required: false,
  description:
    '`wait` (up to 60 s) or `wait=n` (1–60 s): answer once the prediction ended, or `starting` when the wait ran out.',
});

/** The create routes' refusals beyond every route's. */
const CREATE_ERRORS = [
  AppErrorCode.InvalidRequest,
  AppErrorCode.InsufficientBalance,
  AppErrorCode.KeySpendLimitReached,
  AppErrorCode.NotFound,
  AppErrorCode.ContentBlocked,
  AppErrorCode.ScopeNotAllowed,
  AppErrorCode.ModelNotAllowed,
] as const;

@Controller(REPLICATE_ROOT)
@UseGuards(ApiKeyGuard)
export class ReplicatePredictionsController {
  constructor(
    private readonly catalogue: ModelCatalogue,
    private readonly submit: SubmitTaskUseCase,
    private readonly syncSubmit: SyncSubmitUseCase,
    private readonly deleteTask: DeleteTaskUseCase,
    private readonly listTasks: ListTasksUseCase,
    private readonly tasks: TaskRepository,
    private readonly links: PublicLinks,
  ) {}

  @Post('models/:owner/:name/predictions')
  @RequiresScope('tasks:write')
  @HttpCode(201)
  @ReplicateRoute({
    operationId: 'replicateCreateModelPrediction',
    tag: 'Replicate',
    summary: 'Create a prediction of a model (Replicate-compatible)',
    description:
      'The submit of the model’s one run type (same input schema, price, key limits and webhook rules as `/v1`); a model with several run types is a 422 naming its versions: use `POST /replicate/v1/predictions`.',
    ok: { status: 201, description: 'The prediction.', type: ReplicatePredictionDto },
    errors: [...CREATE_ERRORS],
  })
  @ApiParam({ name: 'owner', description: 'The provider id.', example: 'local' })
  @ApiParam({ name: 'name', description: 'The model id.', example: 'simulator' })
  @ApiBody({ type: ReplicateCreatePredictionDto })
  @PREFER_HEADER
  async createForModel(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('owner') owner: string,
    @Param('name') name: string,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Headers('prefer') prefer?: string,
  ): Promise<ReplicatePrediction> {
    const model = `${owner}/${name}`;
    const versions = this.catalogue.all().filter((d) => `${d.provider}/${d.model}` === model);
    if (versions.length === 0)
      throw new AppException('not_found', { message: replicateModelNotFoundMessage(model) });
    if (versions.length > 1)
      throw new AppException('invalid_request', {
        message: replicateModelHasVersionsMessage(
          model,
          versions.map((d) => replicateVersionOf(d.slug)),
        ),
        fields: ['version'],
      });
    const create = parseCreateBody(body, false);
    return this.create(account, versions[0].slug, create, request, parsePrefer(prefer));
  }

  @Post('predictions')
  @RequiresScope('tasks:write')
  @HttpCode(201)
  @ReplicateRoute({
    operationId: 'replicateCreatePrediction',
    tag: 'Replicate',
    summary: 'Create a prediction of a version (Replicate-compatible)',
    description:
      'The submit of the run type the `version` names (`{provider_id}~{model_id}~{run_type}`); an unknown version is a 422.',
    ok: { status: 201, description: 'The prediction.', type: ReplicatePredictionDto },
    errors: [...CREATE_ERRORS],
  })
  @ApiBody({ type: ReplicateCreatePredictionDto })
  @PREFER_HEADER
  async createForVersion(
    @CurrentAccount() account: AuthenticatedAccount,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Headers('prefer') prefer?: string,
  ): Promise<ReplicatePrediction> {
    const create = parseCreateBody(body, true);
    const version = create.version as string;
    const slug = slugOfReplicateVersion(version);
    if (!slug || !this.catalogue.find(slug))
      throw new AppException('invalid_request', {
        message: replicateInvalidVersionMessage(version),
        fields: ['version'],
      });
    return this.create(account, slug, create, request, parsePrefer(prefer));
  }

  @Get('predictions')
  @RequiresScope('tasks:read')
  @ReplicateRoute({
    operationId: 'replicateListPredictions',
    tag: 'Replicate',
    summary: 'List predictions (Replicate-compatible)',
    description:
      'The caller’s predictions, newest first, 20 a page; `next` and `previous` are absolute URLs to follow as given.',
    ok: { description: 'A page of predictions.', type: ReplicatePredictionPageDto },
    errors: [AppErrorCode.InvalidRequest],
  })
  @ApiQuery({ name: 'cursor', required: false, description: 'Set by the `next`/`previous` links.' })
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Query('cursor') cursor: unknown,
    @Req() request: FastifyRequest,
  ): Promise<ReplicatePage<ReplicatePrediction>> {
    if (cursor !== undefined && typeof cursor !== 'string')
      throw new AppException('invalid_request', {
        message: 'Invalid cursor: give it once',
        fields: ['cursor'],
      });
    const trail = cursor ? decodeListCursor(cursor) : undefined;
    const page = await this.listTasks.execute({
      accountId: account.id,
      query: { cursor: trail?.pages[trail.pages.length - 1], include: 'input' },
    });
    const base = this.baseUrl(request);
    const pageUrl = (to: ListTrail | 'first') =>
      to === 'first' ? `${base}/predictions` : `${base}/predictions?cursor=${encodeListCursor(to)}`;
    const previous = previousTrail(trail);
    return {
      previous: previous ? pageUrl(previous) : null,
      next: page.next_cursor ? pageUrl(nextTrail(trail, page.next_cursor)) : null,
      results: page.items.map((item) =>
        replicatePredictionOf(
          {
            id: item.id,
            model: item.model,
            status: item.status,
            input: item.input ?? {},
            outputs: item.outputs,
            error: item.error,
            timings: item.timings ?? null,
            createdAt: new Date(item.created_at),
            // The history pages carry no run times; GET /predictions/{id} has them.
            startedAt: null,
            finishedAt: null,
          },
          base,
        ),
      ),
    };
  }

  @Get('predictions/:id')
  @RequiresScope('tasks:read')
  @ReplicateRoute({
    operationId: 'replicateGetPrediction',
    tag: 'Replicate',
    summary: 'Get a prediction (Replicate-compatible)',
    description: 'A deleted task reads `canceled`.',
    ok: { description: 'The prediction.', type: ReplicatePredictionDto },
    errors: [AppErrorCode.NotFound],
  })
  async get(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
  ): Promise<ReplicatePrediction> {
    const task = await this.tasks.findOwnedTaskEvenDeleted(account.id, id);
    if (!task) throw new AppException('not_found');
    return replicatePredictionOf(task, this.baseUrl(request));
  }

  /**
   * An open prediction is deleted as `DELETE /api/v3/predictions/{id}` deletes
   * it (a started run is stopped and charged, a waiting one released) and
   * answers `canceled`; a finished one is answered unchanged, as Replicate does.
   */
  @Post('predictions/:id/cancel')
  @RequiresScope('tasks:write')
  @HttpCode(200)
  @ReplicateRoute({
    operationId: 'replicateCancelPrediction',
    tag: 'Replicate',
    summary: 'Cancel a prediction (Replicate-compatible)',
    description:
      'An open prediction is deleted as `DELETE /api/v3/predictions/{task_id}` deletes it (a started run is stopped and charged, a waiting one released) and answers `canceled`; a finished one is answered unchanged.',
    ok: { description: 'The prediction.', type: ReplicatePredictionDto },
    errors: [AppErrorCode.NotFound, AppErrorCode.Conflict],
  })
  async cancel(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
  ): Promise<ReplicatePrediction> {
    const base = this.baseUrl(request);
    const task = await this.tasks.findOwnedTaskEvenDeleted(account.id, id);
    if (!task) throw new AppException('not_found');
    if (!isOpen(task.status)) return replicatePredictionOf(task, base);
    try {
      await this.deleteTask.execute({ accountId: account.id, taskId: id, onlyOpen: true });
    } catch (error) {
      const ended =
        error instanceof AppException && error.code === AppErrorCode.Conflict
          ? await this.tasks.findOwnedTaskEvenDeleted(account.id, id)
          : undefined;
      // It ended meanwhile: answered as it ended, its outputs kept.
      if (ended && isTerminal(ended.status)) return replicatePredictionOf(ended, base);
      throw error;
    }
    const canceled = await this.tasks.findOwnedTaskEvenDeleted(account.id, id);
    return replicatePredictionOf(canceled ?? task, base);
  }

  /** Submits through the engine (reserving the price in the task's own statement), waiting if asked. */
  private async create(
    account: AuthenticatedAccount,
    slug: string,
    create: ReplicateCreateBody,
    request: FastifyRequest,
    waitMs: number | undefined,
  ): Promise<ReplicatePrediction> {
    assertModelAllowed(account, slug);
    const [provider, model, runType] = slug.split('/');
    const base = this.baseUrl(request);
    const input = {
      ...submitInput(
        account,
        { provider, model, runType },
        create.input,
        { webhook: create.webhook },
        request,
        undefined,
      ),
      webhookFormat: { kind: 'replicate' as const, base_url: base, events: create.events },
    };
    const id =
      waitMs === undefined
        ? (await this.submit.execute(input)).id
        : (await this.syncSubmit.execute(input, waitMs)).id;
    const task = await this.tasks.findOwnedTaskEvenDeleted(account.id, id);
    if (!task) throw new AppException('not_found');
    // A create answers what it created, `starting`, while the task is open: an idle worker may
    // have claimed it before this read (decision 0143), and a wait that ran out must answer
    // `starting` too, the only status the client's run() polls.
    return replicatePredictionOf(task, base, isOpen(task.status) ? 'starting' : undefined);
  }

  /** The API root the client called (PUBLIC_BASE_URL when set, as every link of the gateway). */
  private baseUrl(request: FastifyRequest): string {
    return `${this.links.origin(request)}/${REPLICATE_ROOT}`;
  }
}
