// Friendly names for the generated OpenAPI types (src/generated/openapi.ts).
import type { components, operations, paths } from './generated/openapi';
import { type TaskStatus, TERMINAL_TASK_STATUSES } from './task-status.constants';

export type { components, operations, paths };

type Schemas = components['schemas'];

/** Answer of an asynchronous submit. */
export type SubmitAck = Schemas['SubmitAck'];
/** A task result: narrow on `status`. */
export type TaskResult = Schemas['TaskResult'];
export type TaskProcessingResult = Schemas['TaskProcessingResult'];
export type TaskCompletedResult = Schemas['TaskCompletedResult'];
export type TaskFailedResult = Schemas['TaskFailedResult'];
/** Answer of a submit: the acknowledgement, or a result with `sync=true`. */
export type SubmitResponse = Schemas['SubmitResponse'];
export type Timings = Schemas['Timings'];
export type WebhookPayload = Schemas['WebhookPayload'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryAttempt = Schemas['WebhookDeliveryAttempt'];
export type ModelEntry = Schemas['ModelEntry'];
export type Balance = Schemas['Balance'];
export type BillingRecord = Schemas['BillingRecord'];
export type BillingsPage = Schemas['BillingsPage'];
export type UsageStatistics = Schemas['UsageStatistics'];
export type UsageBreakdownEntry = Schemas['UsageBreakdownEntry'];
export type UploadAnswer = Schemas['UploadAnswer'];
export type DeleteTaskAnswer = Schemas['DeleteTaskAnswer'];
export type SimulatorInput = Schemas['SimulatorInput'];
/** A task as the `/api/v3/` routes show it. */
export type Prediction = Schemas['Prediction'];
/** One task of `GET /api/v3/predictions`, and a page of them. */
export type TaskListItem = Schemas['TaskListItem'];
export type TaskListPage = Schemas['TaskListPage'];
/** Filters and page of `GET /api/v3/predictions`. */
export type ListTasksQuery = NonNullable<operations['listTasks']['parameters']['query']>;
/** The admin API's account (`GET /admin/v1/accounts/{id}`) and a page of `GET /admin/v1/accounts`. */
export type AdminAccount = Schemas['AdminAccount'];
export type AdminAccountPage = Schemas['AdminAccountPage'];
/** Body of `PATCH /admin/v1/accounts/{id}`: the level and the cap on tasks running at once. */
export type AdminUpdateAccountRequest = Schemas['AdminUpdateAccountRequest'];
/** Filter and page of `GET /admin/v1/accounts`. */
export type AdminListAccountsQuery = NonNullable<
  operations['adminListAccounts']['parameters']['query']
>;
/** One key of `GET /admin/v1/accounts/{id}/api-keys`, and the answer. */
export type AdminApiKey = Schemas['AdminApiKey'];
export type AdminApiKeyList = Schemas['AdminApiKeyList'];
/** An API key with its settings and spend (issue 37), as `/api/v3/keys` and the admin API show it. */
export type ApiKey = Schemas['ApiKey'];
export type SpendLimit = Schemas['SpendLimit'];
/** A new key with its plain key, shown once (`POST /api/v3/keys`). */
export type IssuedOwnApiKey = Schemas['IssuedOwnApiKey'];
/** The admin API's new key (`POST /admin/v1/accounts/{id}/api-keys`). */
export type AdminIssuedApiKey = Schemas['AdminIssuedApiKey'];
/** Body of `POST /api/v3/keys`; of `POST /admin/v1/accounts/{id}/api-keys`; of either PATCH. */
export type CreateApiKeyRequest = Schemas['CreateApiKeyRequest'];
export type AdminCreateApiKeyRequest = Schemas['AdminCreateApiKeyRequest'];
export type UpdateApiKeyRequest = Schemas['UpdateApiKeyRequest'];
export type RevokedApiKey = Schemas['AdminRevokedApiKey'];
/** The queue by account (`GET /admin/v1/queue/accounts`): one account, the totals, a page. */
export type AdminQueueAccount = Schemas['AdminQueueAccount'];
export type AdminQueueTotals = Schemas['AdminQueueTotals'];
export type AdminQueueAccountPage = Schemas['AdminQueueAccountPage'];
/** Page of `GET /admin/v1/queue/accounts`. */
export type AdminListQueueAccountsQuery = NonNullable<
  operations['adminListQueueAccounts']['parameters']['query']
>;
/** `data` of a task stream's `queue` event. */
export type TaskQueueEvent = Schemas['TaskQueueEvent'];
export type TaskEventsToken = Schemas['TaskEventsToken'];
/**
 * One event of `GET /api/v3/predictions/{task_id}/events`: a status (with the
 * task, or `{id, status: "deleted"}`) or the queue position while it waits.
 */
export type TaskEvent =
  | { event: TaskStatus; id: string; data: Prediction }
  | { event: 'deleted'; id: string; data: DeleteTaskAnswer }
  | { event: 'queue'; data: TaskQueueEvent };
export type ChatCompletionRequest = Schemas['ChatCompletionRequest'];
export type ChatCompletion = Schemas['ChatCompletion'];
/** One event of a streamed chat completion. */
export type ChatCompletionChunk = Schemas['ChatCompletionChunk'];
export type ChatMessage = Schemas['ChatMessage'];
export type ChatCompletionUsage = Schemas['ChatCompletionUsage'];
export type ChatModelList = Schemas['ChatModelList'];
/** `/v1/` error body: `error` is a message or a nested `{code, error}`. */
export type V1Error = Schemas['V1Error'];
/** `/api/v3/` error body: the envelope with `data: null`. */
export type V3Error = Schemas['V3Error'];
/** Chat-family error body. */
export type ChatError = Schemas['ChatError'];
/** The `/api/v3/` envelope around `data`. */
export interface ApiEnvelope<T> {
  code: 200;
  message: 'success';
  data: T;
}
/** Query parameters of a submit. */
export type SubmitQuery = NonNullable<operations['submitTask']['parameters']['query']>;

/** True when the result is final (`completed` or `failed`). */
export function isTerminalResult(
  result: TaskResult | SubmitResponse,
): result is TaskCompletedResult | TaskFailedResult {
  return (TERMINAL_TASK_STATUSES as readonly string[]).includes(result.status);
}

/** Reads the message of a `/v1/` error body, whichever form `error` takes. */
export function v1ErrorMessage(body: V1Error): string {
  return typeof body.error === 'string' ? body.error : body.error.error;
}
