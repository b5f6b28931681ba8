import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { assertModelAllowed, type AuthenticatedAccount } from '@genhub/accounts-feature';
import type { TaskCompletedResultDto } from '@genhub/contracts/server';
import { TaskConfig } from '@genhub/config';
import {
  AppErrorCode,
  AppException,
  modelKindMismatchMessage,
  modelNotFoundMessage,
  syncWaitExpiredMessage,
  TaskCode,
} from '@genhub/errors';
import { ModelCatalogue } from '@genhub/providers';
import { OBJECT_STORAGE, type ObjectStorage } from '@genhub/storage';
import { SyncSubmitUseCase } from '@genhub/task-engine';
import { submitInput } from '../tasks/submit-request.util';
import { type MediaRoute, mediaRouteOf, ROUTE_ABILITIES } from './media-models.util';

/** A media call: the route, the model's slug as OpenAI's `model` names it, the mapped input. */
export interface MediaTask {
  route: MediaRoute;
  model: string;
  input: Record<string, unknown>;
  /** The model input's fields → the OpenAI parameter a refusal names instead. */
  params: Record<string, string>;
}

/** A task's file output, read back from storage. */
export interface OutputFile {
  data: Buffer;
  contentType: string;
}

/** Task codes that say the request (its input or its media) was at fault: a 400. */
const REQUEST_FAULTS = new Set<number>([
  TaskCode.ContentModeration,
  TaskCode.RealPersonDetected,
  TaskCode.CopyrightViolation,
  TaskCode.MissingParameter,
  TaskCode.InvalidParameter,
  TaskCode.MediaAccessFailed,
]);

/**
 * One OpenAI-compatible media call as a synchronous submit (decision 0136): the key's
 * model rule, the catalogue, then the engine's sync submit — the reservation, the task,
 * its run and its one settlement are the engine's, as for `?sync=true`. A task that
 * failed is refused in OpenAI's terms; one that outlived the wait is a 504.
 */
@Injectable()
export class MediaTaskUseCase {
  constructor(
    private readonly catalogue: ModelCatalogue,
    private readonly syncSubmit: SyncSubmitUseCase,
    private readonly config: TaskConfig,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
  ) {}

  /** Refuses a model the key may not use, an unknown one, or one of another kind. */
  checkModel(account: AuthenticatedAccount, route: MediaRoute, slug: string): void {
    assertModelAllowed(account, slug);
    const model = this.catalogue.find(slug);
    if (!model)
      throw new AppException(AppErrorCode.ModelNotFound, {
        message: modelNotFoundMessage(slug),
        param: 'model',
      });
    if (mediaRouteOf(model) !== route)
      throw new AppException(AppErrorCode.InvalidRequest, {
        message: modelKindMismatchMessage(slug, ROUTE_ABILITIES[route]),
        param: 'model',
      });
  }

  /** Submits and waits; the completed task, or the refusal its end (or the wait) calls for. */
  async run(
    account: AuthenticatedAccount,
    request: FastifyRequest,
    task: MediaTask,
  ): Promise<TaskCompletedResultDto> {
    this.checkModel(account, task.route, task.model);
    const [provider, ...rest] = task.model.split('/');
    const runType = rest.pop() as string;
    const slug = { provider, model: rest.join('/'), runType };
    let result;
    try {
      result = await this.syncSubmit.execute(
        submitInput(account, slug, task.input, {}, request, undefined),
      );
    } catch (error) {
      throw inOpenAiTerms(error, task.params);
    }
    if (result.status === 'completed') return result;
    if (result.status === 'failed')
      throw new AppException(
        REQUEST_FAULTS.has(result.code) ? AppErrorCode.InvalidRequest : AppErrorCode.UpstreamError,
        { message: `The task ${result.id} failed (code ${result.code}): ${result.error}` },
      );
    throw new AppException(AppErrorCode.SyncWaitExpired, {
      message: syncWaitExpiredMessage(result.id, Math.round(this.config.SYNC_TIMEOUT_MS / 1000)),
    });
  }

  /** A file output (an image, the audio) read back from storage by its URL. */
  async outputFile(url: string): Promise<OutputFile> {
    const key = this.storage.keyFromUrl(url);
    const stored = key ? await this.storage.get(key) : undefined;
    if (!stored) throw new AppException(AppErrorCode.Internal);
    const chunks: Buffer[] = [];
    for await (const chunk of stored.body) chunks.push(Buffer.from(chunk as Uint8Array));
    return { data: Buffer.concat(chunks), contentType: stored.contentType };
  }
}

/** A submit's refusal naming the model input's field names the OpenAI parameter instead. */
function inOpenAiTerms(error: unknown, params: Record<string, string>): unknown {
  if (!(error instanceof AppException) || !error.details.fields?.length) return error;
  const fields = error.details.fields.map((field) => params[field] ?? field);
  return new AppException(error.code, { ...error.details, fields, param: fields[0] });
}
