/**
 * A piece of SQL with its own `$1…` parameters, written by another domain and
 * composed into one of our statements (so a submit is one round trip).
 */
export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/** The fragment's text with `$n` renumbered to follow `offset` parameters already in use. */
export function shiftParams(sql: string, offset: number): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
}
