import { toMicros } from '@genhub/money';
import { ProvidersFileError } from './providers-file.types';

type Json = Record<string, unknown>;

/** Small typed readers that fail with the JSON path of the bad value. */
export class Checker {
  constructor(private readonly source: string) {}

  fail(path: string, problem: string): never {
    throw new ProvidersFileError(this.source, path || '(top level)', problem);
  }

  object(
    raw: unknown,
    path: string,
    allowed?: readonly string[],
    required: readonly string[] = [],
  ): Json {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      this.fail(path, 'must be an object');
    const o = raw as Json;
    if (allowed)
      for (const key of Object.keys(o))
        if (!allowed.includes(key))
          this.fail(path, `has an unknown key "${key}" (expected ${allowed.join(', ')})`);
    for (const key of required) if (o[key] === undefined) this.fail(path, `is missing "${key}"`);
    return o;
  }

  array(raw: unknown, path: string): unknown[] {
    if (!Array.isArray(raw)) this.fail(path, 'must be an array');
    return raw;
  }

  string(raw: unknown, path: string, allowEmpty = false): string {
    if (typeof raw !== 'string' || (!allowEmpty && !raw.trim()))
      this.fail(path, 'must be a non-empty string');
    return raw;
  }

  integer(raw: unknown, path: string, min: number, max: number): number {
    if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min || raw > max)
      this.fail(path, `must be an integer from ${min} to ${max}`);
    return raw;
  }

  oneOf<T extends string>(raw: unknown, path: string, values: readonly T[]): T {
    if (!values.includes(raw as T))
      this.fail(path, `must be one of ${values.join(', ')} (got ${JSON.stringify(raw)})`);
    return raw as T;
  }

  /** A price in the account's currency (at most 6 decimals) → micro-units. */
  price(raw: unknown, path: string): number {
    if (typeof raw !== 'number' || raw < 0) this.fail(path, 'must be a number ≥ 0');
    try {
      return toMicros(raw);
    } catch (error) {
      return this.fail(path, (error as Error).message);
    }
  }
}
