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

interface ListStateProps {
  items: readonly unknown[] | undefined;
  error: string | undefined;
  onRetry(): void;
  /** "Loading tasks…" */
  loading: string;
  /** "No task matches." */
  empty: string;
}

/** A list's states before it can be shown: failed (with Retry), loading, or empty. */
export function ListState({ items, error, onRetry, loading, empty }: ListStateProps) {
  if (error) return <LoadFailed message={error} onRetry={onRetry} />;
  if (!items) return <p aria-busy="true">{loading}</p>;
  return items.length ? null : <p>{empty}</p>;
}
