import {
  APP_ERRORS,
  type ChatError,
  ChatStreamError,
  GenhubRequestError,
  KEY_SPEND_LIMIT_INNER_CODE,
  type V1Error,
  v1ErrorMessage,
  type V3Error,
} from '@genhub/contracts';

/** An answer the console cannot use, with the message to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }

  /** 401: the key is missing, wrong or revoked — back to sign-in. */
  get signedOut(): boolean {
    return this.status === 401;
  }
}

/** The message of an error body in any of the three families (`/api/v3`, `/v1`, chat). */
function bodyMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const v3 = body as Partial<V3Error>;
  if (typeof v3.message === 'string') return v3.message;
  const chat = body as Partial<ChatError>;
  if (typeof chat.error?.message === 'string') return chat.error.message;
  return 'error' in body ? v1ErrorMessage(body as V1Error) : undefined;
}

/** Whether a 402 is the key's spend limit (its own inner code on /v1/, its message elsewhere). */
function keyLimitReached(body: unknown, message: string): boolean {
  const inner = (body as Partial<V1Error> | undefined)?.error;
  if (typeof inner === 'object' && inner?.code === KEY_SPEND_LIMIT_INNER_CODE) return true;
  return message.startsWith(APP_ERRORS.key_spend_limit_reached.message);
}

/** The catalogue's message of an error body, with a hint where one helps. */
export function apiError(status: number, body: unknown): ApiError {
  let message = bodyMessage(body) ?? `The server answered ${status}`;
  if (status === 402)
    message += keyLimitReached(body, message)
      ? " — raise the key's spend limit (API keys page) or wait for its next period."
      : ' — top up the account to continue.';
  return new ApiError(status, message);
}

/** The body of a typed client's answer, or its refusal thrown as the error to show. */
export function dataOf<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.error !== undefined || answer.data === undefined)
    throw apiError(answer.response.status, answer.error);
  return answer.data;
}

/** A network failure (no answer at all), as the same kind of error. */
export function networkError(): ApiError {
  return new ApiError(0, 'The server cannot be reached: check the connection and retry.');
}

/** Whatever a call threw, as the error to show: an API refusal, the network, or the unexpected. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof GenhubRequestError) return apiError(error.status, error.body);
  if (error instanceof ChatStreamError) return new ApiError(0, error.message);
  if (error instanceof TypeError) return networkError();
  return new ApiError(0, error instanceof Error ? error.message : String(error));
}
