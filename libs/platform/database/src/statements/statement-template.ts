import type { Compilable } from 'kysely';
import type { EntityManager } from 'typeorm';
import { preparedQuery } from '../prepared-query.util';
import { isRowsAndCount } from './typed-statements';

/**
 * A value a template leaves open: built into the statement as a parameter,
 * filled by each call. `json` slots are sent as JSON text (jsonb columns).
 */
class Slot {
  json = false;
  constructor(readonly path: readonly string[]) {}
}

/** A slot's nested fields are slots too (`v.task.id`), so a step may take an object. */
function slotProxy(path: readonly string[], slots: Slot[]): unknown {
  const slot = new Slot(path);
  slots.push(slot);
  const children = new Map<string, unknown>();
  return new Proxy(slot, {
    get: (target, field) => {
      if (typeof field === 'symbol' || field === 'json' || field === 'path')
        return Reflect.get(target, field);
      let child = children.get(field);
      if (!child) children.set(field, (child = slotProxy([...path, field], slots)));
      return child;
    },
  });
}

/**
 * Where a step serialises a value to JSON text: a template's slot stays a slot
 * (marked JSON, serialised when the call fills it), anything else is
 * serialised now; null stays SQL NULL.
 */
export function jsonParam(value: unknown): string | null {
  if (value instanceof Slot) {
    value.json = true;
    return value as unknown as string;
  }
  return value === null || value === undefined ? null : JSON.stringify(value);
}

function valueAt(values: unknown, path: readonly string[]): unknown {
  let value = values;
  for (const field of path) value = (value as Record<string, unknown> | undefined)?.[field];
  return value ?? null;
}

/**
 * A statement built and compiled once, then run with each call's values.
 * Building a composed statement with Kysely and compiling it costs 60–170 µs
 * (decision 0132), more than the rest of a task's work in the process that
 * sends it; a template pays it once. `build` gets `Values` whose every field
 * (nested fields too) is a slot: it must use them only as values, never
 * branch on them; whatever decides the statement's shape is fixed when the
 * template is made (one template per shape). The text is then the same for
 * every call, so it is also prepared once per connection (preparedQuery).
 */
export class StatementTemplate<Values extends object, Row> {
  private readonly text: string;
  /** Per parameter: the field that fills it (and whether as JSON), or a value fixed at build. */
  private readonly fill: ((values: Values) => unknown)[];

  constructor(build: (values: Values) => Compilable<Row>) {
    const slots: Slot[] = [];
    const { sql, parameters } = build(slotProxy([], slots) as Values).compile();
    this.text = sql;
    this.fill = parameters.map((parameter) => {
      if (!(parameter instanceof Slot)) return () => parameter;
      const { path, json } = parameter;
      return json
        ? (values) => jsonParam(valueAt(values, path))
        : (values) => valueAt(values, path);
    });
  }

  /** Runs the statement with `values` as a named prepared statement; its rows. */
  async run(manager: EntityManager, values: Values): Promise<Row[]> {
    const result: unknown = await preparedQuery(
      manager,
      this.text,
      this.fill.map((fill) => fill(values)),
    );
    return (isRowsAndCount(result) ? result[0] : result) as Row[];
  }
}
