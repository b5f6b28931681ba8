import { toApiError } from './api-error.util';

/** Where a page sends what went wrong: a 401 signs out (with the message), the rest is shown. */
export function showFailure(
  error: unknown,
  show: (message: string) => void,
  onSignedOut: (message: string) => void,
): void {
  const known = toApiError(error);
  if (known.signedOut) onSignedOut(known.message);
  else show(known.message);
}

/** A read that failed: its message, announced, and a way to try again. */
export function LoadFailed({ message, onRetry }: { message: string; onRetry(): void }) {
  return (
    <div role="alert" className="error">
      <p>{message}</p>
      <button onClick={onRetry}>Retry</button>
    </div>
  );
}
