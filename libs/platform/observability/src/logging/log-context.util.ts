import { AsyncLocalStorage } from 'node:async_hooks';

/** Ids a log line carries while a job runs: the task and the HTTP request that created it. */
export interface LogContext {
  task_id?: string;
  request_id?: string;
}

const storage = new AsyncLocalStorage<LogContext>();
const NONE: LogContext = {};

/**
 * Runs `fn` with `context` merged into every log line written meanwhile
 * (through pino's mixin), including lines of the libs it calls.
 */
export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** pino mixin: the current job's ids, or nothing (no allocation outside a job). */
export function logContextMixin(): LogContext {
  return storage.getStore() ?? NONE;
}

/** The context of a queue job: its task id and, when the job carries it, the request id. */
export function jobLogContext(data: { taskId?: unknown; requestId?: unknown }): LogContext {
  return {
    task_id: typeof data.taskId === 'string' ? data.taskId : undefined,
    request_id: typeof data.requestId === 'string' ? data.requestId : undefined,
  };
}
