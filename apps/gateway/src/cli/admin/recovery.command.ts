import { isUUID } from 'class-validator';
import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseConfig, RedisConfig } from '@genhub/config';
import { databaseIdentity } from '@genhub/database';
import { AppErrorCode, AppException } from '@genhub/errors';
import { checkQueuePrefix, QueueName, takeOverQueuePrefix, withQueueRedis } from '@genhub/queue';
import { RecoveryQueues, ReplayWebhooksUseCase, RequeueOpenTasksUseCase } from '@genhub/task-engine';
import { ParsedArgs, registerAdminCommand } from './admin-command.util';

/** Operator tools that rebuild or steer the queues (docs/decisions/0066). */

/** This database as an installation (decision 0126). */
function installationOf(app: INestApplicationContext) {
  return databaseIdentity(app.get(DataSource), app.get(DatabaseConfig).DATABASE_URL);
}

async function withQueues<T>(
  app: INestApplicationContext,
  run: (dataSource: DataSource, queues: RecoveryQueues) => Promise<T>,
): Promise<T> {
  const dataSource = app.get(DataSource);
  const queues = await RecoveryQueues.open(app.get(RedisConfig), await installationOf(app));
  try {
    return await run(dataSource, queues);
  } finally {
    await queues.close();
  }
}

function usageError(message: string): AppException {
  return new AppException(AppErrorCode.InvalidRequest, { message });
}

function textFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name];
  if (value === true) throw usageError(`--${name} needs a value`);
  return value;
}

function uuidFlag(args: ParsedArgs, name: string): string | undefined {
  const value = textFlag(args, name);
  if (value !== undefined && !isUUID(value)) throw usageError(`--${name} must be a UUID`);
  return value;
}

/** `--queue tasks|billing|webhooks`, or every queue. */
function selectedQueues(args: ParsedArgs): QueueName[] {
  const all = Object.values(QueueName);
  const value = textFlag(args, 'queue');
  if (value === undefined) return all;
  if (!all.includes(value as QueueName))
    throw usageError(`--queue must be one of: ${all.join(', ')}`);
  return [value as QueueName];
}

registerAdminCommand({
  name: 'queues:owner',
  usage: 'queues:owner [--take-over]',
  summary:
    'which installation owns QUEUE_PREFIX: claims it for this database when nobody has, fails when another database owns it; --take-over makes this database its owner (after a restore or a move)',
  arity: 0,
  run: async (app, args) => {
    const installation = await installationOf(app);
    const redis = app.get(RedisConfig);
    if (args.flags['take-over'] === true) {
      const previous = await withQueueRedis(redis, (client) =>
        takeOverQueuePrefix(client, redis.QUEUE_PREFIX, installation),
      );
      return {
        queue_prefix: redis.QUEUE_PREFIX,
        owner: installation.description,
        previous_owner: previous ?? null,
      };
    }
    const outcome = await checkQueuePrefix(redis, installation);
    return {
      queue_prefix: redis.QUEUE_PREFIX,
      owner: installation.description,
      claimed_now: outcome === 'claimed',
    };
  },
});

registerAdminCommand({
  name: 'tasks:requeue',
  usage: 'tasks:requeue [--dry-run]',
  summary:
    'after a Redis loss: hand over the outbox, re-enqueue every open task and every unsettled finished task',
  arity: 0,
  run: (app, args) =>
    withQueues(app, (dataSource, queues) =>
      new RequeueOpenTasksUseCase(dataSource, queues).execute({
        dryRun: args.flags['dry-run'] === true,
      }),
    ),
});

registerAdminCommand({
  name: 'webhooks:replay',
  usage:
    'webhooks:replay [--since <iso>] [--account <id>] [--task <id>] [--min-age-minutes N] [--dry-run]',
  summary:
    'a fresh delivery round for finished tasks whose webhook was abandoned, lost or never sent',
  arity: 0,
  run: (app, args) => {
    const since = textFlag(args, 'since');
    if (since !== undefined && Number.isNaN(Date.parse(since)))
      throw usageError('--since must be an ISO 8601 date-time');
    const minAge = textFlag(args, 'min-age-minutes') ?? '10';
    if (!/^\d+$/.test(minAge)) throw usageError('--min-age-minutes must be a whole number');
    const filter = {
      since: since === undefined ? undefined : new Date(since),
      accountId: uuidFlag(args, 'account'),
      taskId: uuidFlag(args, 'task'),
      minAgeMs: Number(minAge) * 60_000,
      dryRun: args.flags['dry-run'] === true,
    };
    return withQueues(app, (dataSource, queues) =>
      new ReplayWebhooksUseCase(dataSource, queues).execute(filter),
    );
  },
});

for (const [name, paused] of [
  ['workers:pause', true],
  ['workers:resume', false],
] as const)
  registerAdminCommand({
    name,
    usage: `${name} [--queue tasks|billing|webhooks]`,
    summary: paused
      ? 'stop every worker from taking new jobs of the queue(s); running jobs finish'
      : 'let workers take jobs again',
    arity: 0,
    run: (app, args) =>
      withQueues(app, async (_dataSource, queues) => {
        const report: Record<string, { paused: boolean; waiting: number; active: number }> = {};
        for (const name of selectedQueues(args)) {
          const queue = queues.queues[name];
          if (paused) await queue.pause();
          else await queue.resume();
          const counts = await queue.getJobCounts('waiting', 'active');
          report[name] = {
            paused: await queue.isPaused(),
            waiting: counts.waiting ?? 0,
            active: counts.active ?? 0,
          };
        }
        return report;
      }),
  });
