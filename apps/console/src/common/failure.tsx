import { toApiError } from './api-error.util';

/**
 * What to show for a failed read or change, or nothing. A 401 needs no words
 * here: the session's cache signs out with it (common/query-client.ts).
 */
export function failureMessage(...errors: unknown[]): string | undefined {
  const error = errors.find((e) => e !== null && e !== undefined);
  return error === undefined ? undefined : toApiError(error).message;
}

/** A failed change, announced where the page shows it. */
export function Failure({ error }: { error: unknown }) {
  const message = failureMessage(error);
  return message ? (
    <p role="alert" className="error">
      {message}
    </p>
  ) : null;
}

/** A read that failed: its message, announced, and a way to try again. */
export function LoadFailed({ error, onRetry }: { error: unknown; onRetry(): void }) {
  return (
    <div role="alert" className="error">
      <p>{failureMessage(error)}</p>
      <button onClick={onRetry}>Retry</button>
    </div>
  );
}

interface ListStateProps {
  items: readonly unknown[] | undefined;
  error: unknown;
  onRetry(): void;
  /** "Loading tasks…" */
  loading: string;
  /** "No task matches." */
  empty: string;
}

/** A list's states before it can be shown: failed (with Retry), loading, or empty. */
export function ListState({ items, error, onRetry, loading, empty }: ListStateProps) {
  if (error) return <LoadFailed error={error} onRetry={onRetry} />;
  if (!items) return <p aria-busy="true">{loading}</p>;
  return items.length ? null : <p>{empty}</p>;
}
