import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DataSource } from 'typeorm';
import { SecurityConfig, TaskConfig } from '@genhub/config';
import { type SubmitAckDto, validationFindings } from '@genhub/contracts/server';
import { AppException, insufficientBalanceMessage, unknownProviderMessage } from '@genhub/errors';
import { currencySymbol, formatAmount } from '@genhub/money';
import { checkOutboundUrl } from '@genhub/outbound';
import { ChannelName, Channels, ModelCatalogue, ModelDefinition } from '@genhub/providers';
import { JobName } from '@genhub/queue';
import { CreatedTask, NewTask, TaskRepository } from '@genhub/tasks-data-access';
import { RESERVATION_PORT, ReservationPort } from '../../ports/reservation.port';
import { EstimatedDurationService } from '../../services/estimated-duration.service';
import { OutboxRelay, outboxItem } from '../../services/outbox-relay.service';
import { ContentScreen } from '../../util/content-screen.util';
import { parseOutputPrefix } from '../../util/output-prefix.util';
import { AccountBatcher } from '../../util/account-batcher.util';
import { runJob } from './run-job.util';

export interface SubmitTaskInput {
  accountId: string;
  provider: string;
  model: string;
  runType: string;
  body: unknown;
  webhook?: string;
  prefix?: string;
  /** Idempotency-Key header (issue 10). */
  idempotencyKey?: string;
  /** The HTTP request id, carried in the run job so worker log lines name it. */
  requestId?: string;
}

/** The submit acknowledgement, as the contracts shape it. */
export type SubmitTaskResult = SubmitAckDto;

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
/**
 * One: the next batch gathers while this one holds the balance row and commits
 * (a second in flight would only wait on that row's lock; measured, decision 0118).
 */
export const RESERVATIONS_PER_ACCOUNT = 1;
/**
 * Under load the submits of all accounts share this many lines per process
 * (decision 0118, as terminal writes do): those that wait on a busy
 * lane are reserved together, whatever their accounts, in one transaction.
 */
export const RESERVATION_LANES = 2;
/** Submits in flight in the process from which an account without any joins its lane. */
export const RESERVATION_LANES_FROM_IN_FLIGHT = 8;
/** Submits of one account reserved in one transaction at most. */
export const RESERVATION_BATCH = 64;
const MAX_WEBHOOK_URL = 2048;
const MAX_IDEMPOTENCY_KEY = 255;

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
  private readonly accountLines: AccountBatcher;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly catalogue: ModelCatalogue,
    private readonly tasks: TaskRepository,
    @Inject(RESERVATION_PORT) private readonly reservation: ReservationPort,
    private readonly relay: OutboxRelay,
    private readonly estimates: EstimatedDurationService,
    private readonly security: SecurityConfig,
    taskConfig: TaskConfig,
  ) {
    this.screen = new ContentScreen(taskConfig.CONTENT_BLOCKLIST);
    this.accountLines = new AccountBatcher(dataSource, {
      perLine: RESERVATIONS_PER_ACCOUNT,
      lanes: RESERVATION_LANES,
      lanesFromInFlight: RESERVATION_LANES_FROM_IN_FLIGHT,
      maxBatch: RESERVATION_BATCH,
    });
  }

  async execute(input: SubmitTaskInput): Promise<SubmitTaskResult> {
    if (!this.catalogue.hasProvider(input.provider))
      throw new AppException('unknown_provider', {
        message: unknownProviderMessage(input.provider),
      });
    const model = this.catalogue.find(`${input.provider}/${input.model}/${input.runType}`);
    if (!model) throw new AppException('not_found');

    const { body, channel } = await this.validateBody(model, input.body);
    if (this.screen.blocks(body.prompt)) throw new AppException('content_blocked');
    const webhookUrl = this.validateWebhook(input.webhook);
    const prefix = parseOutputPrefix(input.prefix);
    const key = this.validateIdempotencyKey(input.idempotencyKey);

    const requestHash = key
      ? createHash('sha256')
          .update(JSON.stringify([model.slug, stable(body), webhookUrl, prefix]))
          .digest('hex')
      : null;
    if (key) {
      const replay = await this.replay(input.accountId, key, requestHash as string, model, channel);
      if (replay) return replay;
    }

    const id = randomUUID();
    const priceUnits = (model.channels[channel] ?? [])[0].priceUnits;
    const reservation = this.reservation.reservationCte({
      accountId: input.accountId,
      taskId: id,
      amountUnits: priceUnits,
      model: model.slug,
      category: model.category,
    });
    const task: NewTask = {
      id,
      accountId: input.accountId,
      model: model.slug,
      channel,
      category: model.category,
      input: body,
      webhookUrl,
      outputPrefix: prefix,
      priceUnits,
      timeLimitMs: model.timeLimitMs,
      idempotencyKey: key,
      requestHash,
    };
    const announce = [outboxItem({ name: JobName.RunTask, data: runJob(task, input.requestId) })];
    const refused = async (): Promise<never> => {
      this.reservation.counted?.('insufficient');
      const { availableUnits, currency } = await this.reservation.shortfall(input.accountId);
      throw new AppException('insufficient_balance', {
        message: insufficientBalanceMessage(
          currencySymbol(currency),
          formatAmount(availableUnits),
          formatAmount(priceUnits),
        ),
      });
    };
    let created: CreatedTask;
    try {
      created =
        (key
          ? await this.accountLines.run(
              input.accountId,
              async (manager) => {
                // An expired key may be used again: detach it from its old task.
                await manager.query(
                  `UPDATE tasks.tasks SET idempotency_key = NULL
                    WHERE account_id = $1 AND idempotency_key = $2 AND created_at < $3`,
                  [input.accountId, key, new Date(Date.now() - IDEMPOTENCY_WINDOW_MS)],
                );
                return this.tasks.insertReserved(reservation, task, announce, manager);
              },
              true,
            )
          : // The common case: one statement (alone, no transaction around it).
            await this.accountLines.run(input.accountId, (manager) =>
              this.tasks.insertReserved(reservation, task, announce, manager),
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
    this.reservation.counted?.('reserved');
    this.relay.handOver(created.outbox);
    return {
      id,
      status: 'created',
      estimated_duration: await this.estimates.estimate(model.slug, channel),
    };
  }

  private async validateBody(
    model: ModelDefinition,
    raw: unknown,
  ): Promise<{ body: Record<string, unknown>; channel: ChannelName }> {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw new AppException('invalid_request', {
        message: 'Invalid request body: expected a JSON object',
      });
    const body = raw as Record<string, unknown>;
    const { channel: requested, ...params } = body;
    const bad: { fields: string[]; text: string[] } = { fields: [], text: [] };
    let channel = model.defaultChannel;
    if (requested !== undefined) {
      if (
        typeof requested !== 'string' ||
        !(Channels as readonly string[]).includes(requested) ||
        !model.channels[requested as ChannelName]
      ) {
        bad.fields.push('channel');
        bad.text.push(
          `channel must be one of the following values: ${Object.keys(model.channels).join(', ')}`,
        );
      } else channel = requested as ChannelName;
    }
    const instance = plainToInstance(model.inputSchema, params) as object;
    const errors = await validate(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
    });
    for (const finding of validationFindings(errors)) {
      if (!bad.fields.includes(finding.field)) bad.fields.push(finding.field);
      bad.text.push(
        finding.constraint === 'whitelistValidation'
          ? `${finding.field} is not a known parameter`
          : finding.message,
      );
    }
    if (bad.fields.length)
      throw new AppException('invalid_request', {
        message: `Invalid parameters: ${bad.text.join('; ')}`,
        fields: bad.fields,
      });
    return { body, channel };
  }

  private validateWebhook(raw: string | undefined): string | null {
    if (raw === undefined) return null;
    const fail = (why: string): never => {
      throw new AppException('invalid_request', {
        message: `Invalid webhook: ${why}`,
        fields: ['webhook'],
      });
    };
    if (typeof raw !== 'string' || !raw) fail('must be an http(s) URL');
    if (raw.length > MAX_WEBHOOK_URL) fail(`must be at most ${MAX_WEBHOOK_URL} characters`);
    const check = checkOutboundUrl(raw, this.security.ALLOW_PRIVATE_NETWORK_URLS);
    if (!check.ok) fail(check.reason);
    return raw;
  }

  private validateIdempotencyKey(raw: string | undefined): string | null {
    if (raw === undefined) return null;
    // eslint-disable-next-line no-control-regex
    if (!raw || raw.length > MAX_IDEMPOTENCY_KEY || /[\u0000-\u001f\u007f]/.test(raw))
      throw new AppException('invalid_request', {
        message: `Invalid Idempotency-Key: 1 to ${MAX_IDEMPOTENCY_KEY} printable characters`,
      });
    return raw;
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

/** JSON with sorted keys, so equal bodies hash equally whatever their key order. */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, stable((value as Record<string, unknown>)[k])]),
    );
  return value;
}
