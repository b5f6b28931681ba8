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

interface TextNode {
  next: Map<string, TextNode>;
  text?: string;
}

/** Shapes kept at most; more would mean a part that is not fixed text (then start over). */
const MAX_SHAPES = 64;

/**
 * Statement texts composed from parts (fragments of other domains), kept by
 * their parts: the same parts give back the same string object, so building
 * it, hashing it for its prepared-statement name and node-postgres's check
 * that a name keeps its text are paid once per shape, not once per call
 * (about a tenth of the task-worker's CPU; decision 0090).
 */
export class StatementTexts {
  private root: TextNode = { next: new Map() };
  private shapes = 0;

  text(parts: readonly string[], build: () => string): string {
    let node = this.root;
    for (const part of parts) {
      let next = node.next.get(part);
      if (!next) node.next.set(part, (next = { next: new Map() }));
      node = next;
    }
    if (node.text === undefined) {
      if (++this.shapes > MAX_SHAPES) {
        this.root = { next: new Map() };
        this.shapes = 0;
        return this.text(parts, build);
      }
      node.text = build();
    }
    return node.text;
  }
}
