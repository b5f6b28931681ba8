/**
 * Every Prometheus series the platform exports, in one place: the code creates
 * its series from these entries, the scrape test looks for them, and the
 * deploy test checks that the dashboard and the alert rules query nothing else.
 * Label values are bounded (route families, queue names, model slugs, codes;
 * the ten account ids of `genhub_account_tasks` and `other`).
 */
export type ServiceName = 'gateway' | 'task-worker' | 'webhook-dispatcher' | 'billing';
export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricSpec {
  name: string;
  type: MetricType;
  help: string;
  labelNames: readonly string[];
  /** The apps whose /metrics carry it. */
  services: readonly ServiceName[];
  buckets?: number[];
}

const ALL: readonly ServiceName[] = ['gateway', 'task-worker', 'webhook-dispatcher', 'billing'];
/** Apps that run BullMQ workers (wait and run time are measured where the job runs). */
const WORKERS: readonly ServiceName[] = ['task-worker', 'webhook-dispatcher', 'billing'];

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60];
const JOB_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900];

export const METRICS = {
  httpRequests: {
    name: 'genhub_http_requests_total',
    type: 'counter',
    help: 'HTTP requests by route family, method and status code',
    labelNames: ['route', 'method', 'status'],
    services: ALL,
  },
  httpDuration: {
    name: 'genhub_http_request_duration_seconds',
    type: 'histogram',
    help: 'HTTP request duration by route family',
    labelNames: ['route'],
    services: ALL,
    buckets: LATENCY_BUCKETS,
  },
  httpErrors: {
    name: 'genhub_http_errors_total',
    type: 'counter',
    help: 'HTTP answers with status >= 400 by route family and class (client: 4xx, server: 5xx)',
    labelNames: ['route', 'class'],
    services: ALL,
  },
  apiClients: {
    name: 'genhub_api_client_requests_total',
    type: 'counter',
    help: 'Gateway requests by the SDK they declare (X-Client-Name): a known SDK, other, or none',
    labelNames: ['client'],
    services: ['gateway'],
  },
  taskEventStreams: {
    name: 'genhub_task_event_streams_open',
    type: 'gauge',
    help: 'Task event streams (GET /api/v3/predictions/{id}/events) open on this gateway',
    labelNames: [],
    services: ['gateway'],
  },
  queueJobs: {
    name: 'genhub_queue_jobs',
    type: 'gauge',
    help: 'BullMQ jobs per queue and state (waiting, active, delayed, failed), read on scrape',
    labelNames: ['queue', 'state'],
    services: ALL,
  },
  tasksWaiting: {
    name: 'genhub_tasks_waiting',
    type: 'gauge',
    help: "Tasks waiting to run: in the fair stage plus in the tasks queue's wait list, read on scrape (KEDA scales task-workers on it)",
    labelNames: [],
    services: ['gateway'],
  },
  accountTasks: {
    name: 'genhub_account_tasks',
    type: 'gauge',
    help: 'Open tasks by state (waiting, running) of the 10 accounts with the most waiting (account: the id) and of every other account summed (account="other"), from PostgreSQL at most every 15 s',
    labelNames: ['account', 'state'],
    services: ['gateway'],
  },
  accountsWaiting: {
    name: 'genhub_accounts_waiting',
    type: 'gauge',
    help: 'Accounts with a task waiting to run, from PostgreSQL at most every 15 s',
    labelNames: [],
    services: ['gateway'],
  },
  queueWait: {
    name: 'genhub_queue_job_wait_seconds',
    type: 'histogram',
    help: 'Time from enqueue (after any delay) to the start of the run, per queue',
    labelNames: ['queue'],
    services: WORKERS,
    buckets: JOB_BUCKETS,
  },
  queueRun: {
    name: 'genhub_queue_job_run_seconds',
    type: 'histogram',
    help: 'Run time of a job, per queue and result (completed, failed)',
    labelNames: ['queue', 'result'],
    services: WORKERS,
    buckets: JOB_BUCKETS,
  },
  taskOutcomes: {
    name: 'genhub_task_outcomes_total',
    type: 'counter',
    help: 'Task runs by model, outcome (completed, failed, skipped, superseded, deleted, unknown-task) and task code',
    labelNames: ['model', 'outcome', 'code'],
    services: ['task-worker'],
  },
  tasksSwept: {
    name: 'genhub_tasks_swept_total',
    type: 'counter',
    help: 'Tasks failed with 5004 by the stuck-task sweeper, by the state they were stuck in (created, processing)',
    labelNames: ['from'],
    services: ['task-worker'],
  },
  webhookAttempts: {
    name: 'genhub_webhook_attempts_total',
    type: 'counter',
    help: 'Webhook delivery attempts by outcome (delivered, failed: a retry follows, abandoned: the last one failed)',
    labelNames: ['outcome'],
    services: ['webhook-dispatcher'],
  },
  webhookLatency: {
    name: 'genhub_webhook_delivery_latency_seconds',
    type: 'histogram',
    help: 'Time from the task turning terminal (delivery enqueued) to the start of the first attempt',
    labelNames: [],
    services: ['webhook-dispatcher'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  },
  webhookDeliveriesDue: {
    name: 'genhub_webhook_deliveries_due',
    type: 'gauge',
    help: 'Task-end webhook deliveries due for an attempt, waiting for a dispatcher to claim them or claimed and under way; read from PostgreSQL on scrape, at most 100,000 counted (KEDA scales dispatchers on it)',
    labelNames: ['state'],
    services: ['webhook-dispatcher'],
  },
  webhookDeferrals: {
    name: 'genhub_webhook_deferrals_total',
    type: 'counter',
    help: 'Attempts put back because their receiver host was at its concurrency limit',
    labelNames: [],
    services: ['webhook-dispatcher'],
  },
  reservations: {
    name: 'genhub_billing_reservations_total',
    type: 'counter',
    help: 'Reservations asked for at submit by result (reserved, insufficient)',
    labelNames: ['result'],
    services: ['gateway'],
  },
  settlements: {
    name: 'genhub_billing_settlements_total',
    type: 'counter',
    help: 'Settle events by outcome: captured, released, or unchanged (already settled or unknown); a run settles in the task-worker, other terminal writes through the billing app',
    labelNames: ['outcome'],
    services: ['billing', 'task-worker'],
  },
  openReservations: {
    name: 'genhub_billing_open_reservations',
    type: 'gauge',
    help: 'Reservations not yet captured or released, read on scrape',
    labelNames: [],
    services: ['billing'],
  },
  ledgerAuditRuns: {
    name: 'genhub_ledger_audit_runs_total',
    type: 'counter',
    help: 'Periodic ledger audits by result (ok, failed: a rule is broken, error: the audit could not run)',
    labelNames: ['result'],
    services: ['billing'],
  },
  ledgerAuditFailingAccounts: {
    name: 'genhub_ledger_audit_failing_accounts',
    type: 'gauge',
    help: 'Accounts breaking a ledger rule at the last periodic audit',
    labelNames: [],
    services: ['billing'],
  },
  ledgerAuditLastRun: {
    name: 'genhub_ledger_audit_last_run_timestamp_seconds',
    type: 'gauge',
    help: 'Unix time of the last completed periodic ledger audit',
    labelNames: [],
    services: ['billing'],
  },
} as const satisfies Record<string, MetricSpec>;

/** prom-client's default process metrics the dashboard uses, and Prometheus' own `up`. */
export const PLATFORM_SERIES = [
  'up',
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_p99_seconds',
] as const;

/** Every series name a query may use: histograms expand to _bucket, _sum and _count. */
export function knownSeriesNames(): Set<string> {
  const names = new Set<string>(PLATFORM_SERIES);
  for (const spec of Object.values(METRICS) as MetricSpec[]) {
    if (spec.type === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(spec.name + suffix);
    else names.add(spec.name);
  }
  return names;
}
