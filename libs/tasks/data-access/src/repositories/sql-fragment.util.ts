/**
 * A piece of SQL with its own `$1…` parameters, written by another domain and
 * composed into one of our statements (so a submit is one round trip).
 */
export interface SqlFragment {
  /** Data-modifying CTEs (`name AS (…), …`), parameters numbered from $1. */
  sql: string;
  params: unknown[];
  /** The CTE whose rows say the fragment took effect (one row: it did; none: it did not). */
  yields: string;
}

/** The fragment's text with `$n` renumbered to follow `offset` parameters already in use. */
export function shiftParams(sql: string, offset: number): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
}
