import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type Compilable,
  type Expression,
  type QueryCreator,
  type SqlBool,
} from 'kysely';
import type { EntityManager } from 'typeorm';
import { preparedQuery } from '../prepared-query.util';

/**
 * A statement builder for the tables in `DB` (a domain's generated
 * `schema.types.ts`, or several domains' together): it only builds and
 * compiles SQL, never connects. TypeORM's connection runs what it compiles
 * (runStatement), so statements join the caller's transaction as before.
 * A statement on a column the migrated schema does not have fails the type
 * check (decision 0132).
 */
export function statementsOf<DB>(): Kysely<DB> {
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

/**
 * Runs a built statement on `manager` and returns its rows. `prepared`: as a
 * named prepared statement (hot paths only; see preparedQuery).
 */
export async function runStatement<Row>(
  manager: EntityManager,
  statement: Compilable<Row>,
  { prepared = false } = {},
): Promise<Row[]> {
  const { sql, parameters } = statement.compile();
  const params = parameters as unknown[];
  const result: unknown = prepared
    ? await preparedQuery(manager, sql, params)
    : await manager.query(sql, params);
  // TypeORM answers a top-level UPDATE or DELETE with [rows, affected count].
  return (isRowsAndCount(result) ? result[0] : result) as Row[];
}

export function isRowsAndCount(result: unknown): result is [unknown[], number] {
  return (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  );
}

/**
 * Adds one domain's steps (data-modifying CTEs typed on that domain's own
 * tables) to a statement on more tables: each domain's part is checked
 * against its own tables, the composing part against all of them, and the
 * steps' results become tables of the statement (decision 0132).
 */
export function withSteps<All, Own, Result extends Own, Args extends unknown[]>(
  statement: QueryCreator<All>,
  steps: (own: QueryCreator<Own>, ...args: Args) => QueryCreator<Result>,
  ...args: Args
): QueryCreator<All & Result> {
  // QueryCreator is invariant in its tables; the steps only add to them.
  return steps(statement as unknown as QueryCreator<Own>, ...args) as unknown as QueryCreator<
    All & Result
  >;
}

/** `EXISTS (SELECT 1 FROM step)`: the condition "that step wrote a row", for the steps after it. */
export function anyRowIn<DB>(
  _statement: QueryCreator<DB>,
  step: keyof DB & string,
): Expression<SqlBool> {
  return sql<SqlBool>`EXISTS (SELECT 1 FROM ${sql.table(step)})`;
}
