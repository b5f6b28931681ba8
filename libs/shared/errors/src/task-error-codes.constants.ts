/**
 * Task error codes: the `code` of a task result or webhook (docs/interface.md,
 * "Task error codes"). The only place a task code or its message is spelled out.
 */
export const TaskCode = {
  Success: 0,
  ContentModeration: 1200,
  RealPersonDetected: 1201,
  CopyrightViolation: 1202,
  MissingParameter: 1400,
  InvalidParameter: 1401,
  MediaAccessFailed: 1402,
  TaskExecutionFailed: 1403,
  TaskFailed: 1405,
  InternalError: 5000,
  ServiceUnavailable: 5003,
  Timeout: 5004,
} as const;

export type TaskCode = (typeof TaskCode)[keyof typeof TaskCode];
export type TaskFailureCode = Exclude<TaskCode, typeof TaskCode.Success>;

export interface TaskCodeEntry {
  readonly name: string;
  readonly message: string;
  /** Worth submitting again (docs/interface.md, "Retry guidance"). */
  readonly transient: boolean;
}

export const TASK_CODES = {
  0: { name: 'Success', message: 'Task completed', transient: false },
  1200: {
    name: 'Content Moderation',
    message: 'Prompt or input flagged by content moderation',
    transient: false,
  },
  1201: {
    name: 'Real Person Detected',
    message: 'Input image contains a real person',
    transient: false,
  },
  1202: {
    name: 'Copyright Violation',
    message: 'Output may relate to copyright restrictions',
    transient: false,
  },
  1400: {
    name: 'Missing Parameter',
    message: 'A required parameter was not provided',
    transient: false,
  },
  1401: {
    name: 'Invalid Parameter',
    message: 'A parameter value is invalid or out of range',
    transient: false,
  },
  1402: {
    name: 'Media Access Failed',
    message: 'The provided media URL could not be downloaded or accessed',
    transient: false,
  },
  1403: { name: 'Task Execution Failed', message: 'Error during processing', transient: false },
  1405: { name: 'Task Failed', message: 'General task failure', transient: false },
  5000: { name: 'Internal Error', message: 'Internal system error', transient: true },
  5003: {
    name: 'Service Unavailable',
    message: 'Upstream model provider temporarily unavailable',
    transient: true,
  },
  5004: { name: 'Timeout', message: 'Timed out waiting for the provider', transient: true },
} as const satisfies Record<TaskCode, TaskCodeEntry>;

export const TASK_FAILURE_CODES = Object.values(TaskCode).filter(
  (code): code is TaskFailureCode => code !== TaskCode.Success,
);

export function isTaskFailureCode(value: unknown): value is TaskFailureCode {
  return typeof value === 'number' && (TASK_FAILURE_CODES as number[]).includes(value);
}

/** The catalogue's meaning text, optionally followed by what went wrong. */
export function taskErrorMessage(code: TaskFailureCode, detail?: string): string {
  const base = TASK_CODES[code].message;
  return detail ? `${base}: ${detail}` : base;
}
