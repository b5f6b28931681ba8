import type { JobsOptions } from 'bullmq';

export const QueueName = {
  Tasks: 'tasks',
  Billing: 'billing',
  Webhooks: 'webhooks',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export const JobName = {
  RunTask: 'run-task',
  SettleTask: 'settle-task',
  DeliverWebhook: 'deliver-webhook',
} as const;
export type JobName = (typeof JobName)[keyof typeof JobName];

/**
 * Payloads carry ids and a schema version, never whole entities. `requestId`
 * is the HTTP request that created the task, for log correlation only
 * (optional: jobs enqueued before it existed have none).
 *
 * A run job is ids only: the worker claims the task and reads it in one
 * statement. (Version 2 jobs, which also carried the task's fixed fields, are
 * still accepted from queues filled before the upgrade and run as version 1.)
 * Its outbox row also says how its account is scheduled (`accountId`,
 * `level`, `maxConcurrentTasks`): the relay hands it to the fair stage
 * (decision 0133); a row without them goes straight to the run queue.
 */
export interface RunTaskJob {
  v: 1;
  taskId: string;
  requestId?: string;
  /** The task's account: its line in the fair stage, and its cap's count while it runs. */
  accountId?: string;
  /** The account's level at submit (an AccountLevel): its weight under fair scheduling. */
  level?: string;
  /** The operator's cap on the account's running tasks at submit; absent or null: none. */
  maxConcurrentTasks?: number | null;
}
export interface SettleTaskJob {
  v: 1;
  taskId: string;
  requestId?: string;
  accountId: string;
  /** capture: the task's price becomes a usage record; release: the reservation is returned. */
  outcome: 'capture' | 'release';
}
/**
 * One delivery attempt, by ids (version 2): the URL and the body every attempt
 * sends live in the delivery row that the run's terminal statement opened
 * (decision 0105). The first job has id `webhook-<taskId>`; the dispatcher
 * enqueues each retry itself with its attempt number. A `start` event's
 * delivery (decision 0137) is the task's other one: its jobs are
 * `webhook-start-<taskId>`, `…-2`, ….
 */
export interface DeliverWebhookJob {
  v: 2;
  taskId: string;
  /** Which of the task's deliveries: absent, its end (`completed`); `start`, its first claim. */
  event?: 'start';
  requestId?: string;
  accountId: string;
  /** 1-based; absent on the first job. */
  attempt?: number;
  /** The first attempt of this round: absent (1) unless `webhooks:replay` reopened the delivery. */
  firstAttempt?: number;
}

export type JobItem =
  | { name: typeof JobName.RunTask; data: RunTaskJob }
  | { name: typeof JobName.SettleTask; data: SettleTaskJob }
  | { name: typeof JobName.DeliverWebhook; data: DeliverWebhookJob };

/** Which queue each job goes to: one job name, one queue, one processor. */
export const JOB_QUEUE = {
  'run-task': QueueName.Tasks,
  'settle-task': QueueName.Billing,
  'deliver-webhook': QueueName.Webhooks,
} as const satisfies Record<JobName, QueueName>;

const keep = { removeOnComplete: { age: 3600, count: 10_000 }, removeOnFail: { age: 7 * 86400 } };

/**
 * Job options, declared once per job name. Call sites only pass the
 * deterministic job id (see jobIdFor), so a re-sent outbox row is a no-op.
 */
export const JOB_OPTIONS = {
  // A task run is retried only when its worker died (stalled); the task's own
  // failures are terminal states, not job failures.
  'run-task': { attempts: 3, backoff: { type: 'exponential', delay: 1000 }, ...keep },
  'settle-task': { attempts: 20, backoff: { type: 'exponential', delay: 500 }, ...keep },
  // Attempts at the receiver are counted by the dispatcher itself (WEBHOOK_RETRY_DELAYS_MS);
  // these job retries only cover our own outages (PostgreSQL or Redis down mid-attempt),
  // which the dispatcher's replay check makes safe.
  'deliver-webhook': { attempts: 8, backoff: { type: 'exponential', delay: 1000 }, ...keep },
} as const satisfies Record<JobName, JobsOptions>;

/** Which app consumes each queue: one queue, one processor, one app. */
export const QUEUE_CONSUMER = {
  tasks: 'task-worker',
  billing: 'billing',
  webhooks: 'webhook-dispatcher',
} as const satisfies Record<QueueName, string>;

/** The job names routed to a queue (what its one processor must handle). */
export function jobsOf(queue: QueueName): JobName[] {
  return (Object.keys(JOB_QUEUE) as JobName[]).filter((name) => JOB_QUEUE[name] === queue);
}

/** BullMQ custom ids may not contain ':'. */
export function jobIdFor(name: JobName, taskId: string): string {
  const prefix = { 'run-task': 'task', 'settle-task': 'settle', 'deliver-webhook': 'webhook' }[
    name
  ];
  return `${prefix}-${taskId}`;
}

/**
 * The first job of a replayed webhook round (attempt n = attempts so far + 1).
 * Its own id, so an old job still kept by BullMQ under `webhook-<task>` does
 * not turn the replay into a no-op; later attempts of the round use
 * attemptJobId, whose numbers were never used for this task.
 */
export function replayJobId(taskId: string, firstAttempt: number): string {
  return `${jobIdFor(JobName.DeliverWebhook, taskId)}-replay-${firstAttempt}`;
}

/**
 * Deterministic id of webhook attempt n: a re-run job re-enqueues the same
 * retry, never a second one. The `start` event's delivery has ids of its own.
 */
export function attemptJobId(taskId: string, attempt: number, event?: 'start'): string {
  const base = event ? startWebhookJobId(taskId) : jobIdFor(JobName.DeliverWebhook, taskId);
  return attempt <= 1 ? base : `${base}-${attempt}`;
}

/** The first job of a task's `start` webhook (decision 0137): one per task, whichever run claimed it. */
export function startWebhookJobId(taskId: string): string {
  return `webhook-start-${taskId}`;
}

/** Redis pub/sub channels (prefixed with QUEUE_PREFIX at runtime). */
export const PubSubChannel = {
  /** A task reached a terminal state (message: task id). Wakes sync waiters and event streams. */
  TaskTerminal: 'task-terminal',
  /** A task changed status without ending: claimed for a run, or deleted (message: task id). Wakes event streams. */
  TaskStatus: 'task-status',
  /** A task was deleted while processing (message: task id). Aborts the run. */
  TaskCancel: 'task-cancel',
  /** The fair stage had nothing to hand out and now has (message empty). Wakes idle task-workers' fair runners. */
  FairWork: 'fair-work',
  /** A webhook delivery was opened due now (message empty). Wakes the dispatchers' claim loops (decision 0141). */
  WebhooksDue: 'webhooks-due',
  /** An API key was revoked or an account suspended (message: account id). Drops auth caches. */
  AuthChanged: 'auth-changed',
} as const;
export type PubSubChannel = (typeof PubSubChannel)[keyof typeof PubSubChannel];

/** A channel's name on Redis: under the installation's QUEUE_PREFIX (PubSubService, the fair stage's scripts). */
export function pubSubChannelName(prefix: string, channel: PubSubChannel): string {
  return `${prefix}:${channel}`;
}
