import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SecurityConfig, TaskConfig } from '@genhub/config';
import type { AccountLevel } from '@genhub/contracts';
import type { SubmitAckDto } from '@genhub/contracts/server';
import type { SpendPeriod } from '@genhub/contracts';
import { AppException, unknownProviderMessage } from '@genhub/errors';
import { LedgerRepository, type ReserveInput, spendPeriodStart } from '@genhub/billing-data-access';
import { GroupCommit } from '@genhub/database';
import { METRICS, MetricsService } from '@genhub/observability';
import { ChannelName, ModelCatalogue, ModelDefinition } from '@genhub/providers';
import { JobName } from '@genhub/queue';
import { NewTask, TaskRepository, type WebhookFormat } from '@genhub/tasks-data-access';
import { ContentScreen, EstimatedDurationService, parseOutputPrefix } from '@genhub/tasks-feature';
import { OutboxRelay, outboxItem } from '../outbox/outbox-relay.service';
import { Submitted, submitStatement } from '../statements/task-engine.statements';
import { ACCOUNT_LINES } from '../task-engine.constants';
import { runJob } from './run-job';
import { checkBody, checkIdempotencyKey, checkWebhook, requestHashOf } from './submit-checks';
import { refusalException } from './refusal';
import { RefusalReads } from './refusal-reads';
import { newTaskId } from './task-id.util';

export interface SubmitTaskInput {
  accountId: string;
  /** The account's level: its weight under fair scheduling (LEVEL_WEIGHTS). */
  accountLevel: AccountLevel;
  /** The operator's cap on the account's running tasks; absent or null: none. */
  maxConcurrentTasks?: number | null;
  provider: string;
  model: string;
  runType: string;
  body: unknown;
  webhook?: string;
  /** How the webhook is written (a Replicate-compatible prediction's, decision 0137); absent: genhub's. */
  webhookFormat?: WebhookFormat;
  prefix?: string;
  /** Idempotency-Key header (issue 10). */
  idempotencyKey?: string;
  /** The HTTP request id, carried in the run job so worker log lines name it. */
  requestId?: string;
  /** The calling key: kept on the reservation and the usage record (issue 37); absent: none. */
  apiKeyId?: string | null;
  /** The calling key's spend limit: the reservation counts against it; absent or null: none. */
  keySpendLimit?: { amountUnits: number; period: SpendPeriod } | null;
}

/** The submit acknowledgement, as the contracts shape it. */
export type SubmitTaskResult = SubmitAckDto;

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

/**
 * POST /v1/{provider}/{model}/{run_type}. Checks in the documented order
 * (provider, model, body, content, webhook, prefix), then ONE statement:
 * the reservation, the task row and its RunTask outbox row (with an
 * Idempotency-Key, one transaction that first detaches an expired key). The
 * answer is sent only after that commit; the job is handed to the relay,
 * which enqueues it at once (the outbox row is the safety net).
 */
@Injectable()
export class SubmitTaskUseCase {
  private readonly screen: ContentScreen;
  /**
   * Reservations in flight per account from this process: the rest of an
   * account's submits wait here, not on its balance row's lock, and those
   * that waited together are reserved in one transaction,
   * each in arrival order with its own answer (group commit, decision 0118).
   */
  private readonly accountLines: GroupCommit;
  /** Why submits were refused: one read for those refused together. */
  private readonly refusals: RefusalReads;
  private readonly reservations: Record<'reserved' | 'insufficient', { inc(): void }>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly catalogue: ModelCatalogue,
    private readonly tasks: TaskRepository,
    private readonly ledger: LedgerRepository,
    private readonly relay: OutboxRelay,
    private readonly estimates: EstimatedDurationService,
    private readonly security: SecurityConfig,
    taskConfig: TaskConfig,
    metrics: MetricsService,
  ) {
    this.screen = new ContentScreen(taskConfig.CONTENT_BLOCKLIST);
    this.accountLines = new GroupCommit(dataSource, ACCOUNT_LINES);
    this.refusals = new RefusalReads((reservation) => this.ledger.refusal(reservation));
    const counter = metrics.counter(METRICS.reservations);
    this.reservations = {
      reserved: counter.labels('reserved'),
      insufficient: counter.labels('insufficient'),
    };
  }

  async execute(input: SubmitTaskInput): Promise<SubmitTaskResult> {
    if (!this.catalogue.hasProvider(input.provider))
      throw new AppException('unknown_provider', {
        message: unknownProviderMessage(input.provider),
      });
    const model = this.catalogue.find(`${input.provider}/${input.model}/${input.runType}`);
    if (!model) throw new AppException('not_found');

    const { body, channel } = await checkBody(model, input.body);
    if (this.screen.blocks(body.prompt)) throw new AppException('content_blocked');
    const webhookUrl = checkWebhook(input.webhook, this.security.ALLOW_PRIVATE_NETWORK_URLS);
    const prefix = parseOutputPrefix(input.prefix);
    const key = checkIdempotencyKey(input.idempotencyKey);

    const requestHash = key ? requestHashOf(model.slug, body, webhookUrl, prefix) : null;
    if (key) {
      const replay = await this.replay(input.accountId, key, requestHash as string, model, channel);
      if (replay) return replay;
    }

    const id = newTaskId();
    const priceUnits = (model.channels[channel] ?? [])[0].priceUnits;
    const limit = input.keySpendLimit ?? null;
    const reservation: ReserveInput = {
      accountId: input.accountId,
      taskId: id,
      amountUnits: priceUnits,
      model: model.slug,
      category: model.category,
      apiKeyId: input.apiKeyId ?? null,
      ...(limit && input.apiKeyId
        ? {
            keyLimit: {
              limitUnits: limit.amountUnits,
              periodStart: spendPeriodStart(limit.period, new Date()),
            },
          }
        : {}),
    };
    const task: NewTask = {
      id,
      accountId: input.accountId,
      model: model.slug,
      channel,
      category: model.category,
      input: body,
      webhookUrl,
      webhookFormat: webhookUrl ? (input.webhookFormat ?? null) : null,
      outputPrefix: prefix,
      priceUnits,
      timeLimitMs: model.timeLimitMs,
      idempotencyKey: key,
      requestHash,
    };
    const announce = outboxItem({ name: JobName.RunTask, data: runJob(task, input) });
    const refused = async (): Promise<never> => {
      this.reservations.insufficient.inc();
      throw refusalException(await this.refusals.read(reservation), limit, priceUnits);
    };
    let created: Submitted;
    try {
      created =
        (key
          ? await this.accountLines.run(
              input.accountId,
              async (manager) => {
                // An expired key may be used again: detach it from its old task.
                await this.tasks.detachIdempotencyKey(
                  manager,
                  input.accountId,
                  key,
                  new Date(Date.now() - IDEMPOTENCY_WINDOW_MS),
                );
                return submitStatement(manager, reservation, task, announce);
              },
              true,
            )
          : // The common case: one statement (alone, no transaction around it).
            await this.accountLines.run(input.accountId, (manager) =>
              submitStatement(manager, reservation, task, announce),
            )) ?? (await refused());
    } catch (error) {
      // Two parallel submits with one Idempotency-Key: the loser answers like a replay.
      if (key && (error as { code?: string }).code === '23505') {
        const replay = await this.replay(
          input.accountId,
          key,
          requestHash as string,
          model,
          channel,
        );
        if (replay) return replay;
      }
      throw error;
    }
    this.reservations.reserved.inc();
    this.relay.handOver([created.outbox]);
    return {
      id,
      status: 'created',
      estimated_duration: await this.estimates.estimate(model.slug, channel),
    };
  }

  /** The acknowledgement of an earlier submit with this key, or a 409 when the body differs. */
  private async replay(
    accountId: string,
    key: string,
    requestHash: string,
    model: ModelDefinition,
    channel: ChannelName,
  ): Promise<SubmitTaskResult | undefined> {
    const earlier = await this.tasks.findByIdempotencyKey(accountId, key);
    if (!earlier || earlier.createdAt.getTime() < Date.now() - IDEMPOTENCY_WINDOW_MS)
      return undefined;
    if (earlier.requestHash !== requestHash)
      throw new AppException('conflict', {
        message: 'Idempotency-Key was already used with a different request',
      });
    return {
      id: earlier.id,
      status: 'created',
      estimated_duration: await this.estimates.estimate(model.slug, channel),
    };
  }
}
