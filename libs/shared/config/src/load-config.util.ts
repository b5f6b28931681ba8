import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { SENSITIVE_KEYS } from './pieces.config';
import { isProduction, productionDefaultsOf, productionRulesOf } from './production-mode.util';

export type ConfigClass<T = object> = new () => T;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = 'ConfigError';
  }
}

const TYPE_CONSTRAINTS = ['isInt', 'isBoolean', 'matches', 'isIn', 'isUrl', 'isString'];

function describe(error: ValidationError, raw: Record<string, string | undefined>): ConfigError {
  const variable = error.property;
  // A type error ("must be an integer") explains more than a range error on the same value.
  const constraints = error.constraints ?? {};
  const key = TYPE_CONSTRAINTS.find((k) => k in constraints) ?? Object.keys(constraints)[0];
  const detail = (key && constraints[key]) || 'is invalid';
  // class-validator messages start with the property name; keep only the reason.
  const reason = detail.startsWith(variable) ? detail.slice(variable.length).trim() : detail;
  const value = raw[variable];
  const shown =
    value === undefined
      ? ' (not set)'
      : SENSITIVE_KEYS.has(variable)
        ? ''
        : ` (got ${JSON.stringify(value)})`;
  return new ConfigError(variable, `${reason}${shown}`);
}

/**
 * Validates one configuration piece against the environment. Defaults come
 * from the class's property initialisers, then from `defaults`, then (in
 * production mode) from the piece's production defaults. In production mode
 * the piece's production rules run after its validation (decision 0127).
 * Throws ConfigError naming the first bad variable.
 */
export function loadConfig<T extends object>(
  cls: ConfigClass<T>,
  env: Record<string, string | undefined>,
  defaults: Record<string, string> = {},
): T {
  const production = isProduction(env);
  const raw: Record<string, string | undefined> = {
    ...defaults,
    ...(production ? productionDefaultsOf(cls) : {}),
  };
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') raw[k] = v;
  const instance = plainToInstance(cls, raw, { exposeDefaultValues: true });
  // Keep only the piece's own keys so unrelated variables never leak in.
  const errors = validateSync(instance, { forbidUnknownValues: false });
  if (errors.length > 0) throw describe(errors[0], raw);
  if (production)
    for (const { property, rule } of productionRulesOf(cls)) {
      const reason = rule((instance as Record<string, unknown>)[property], instance, raw);
      if (reason) throw new ConfigError(property, reason);
    }
  if ((cls as { keepsEnvironment?: boolean }).keepsEnvironment)
    Object.defineProperty(instance, 'environment', {
      value: Object.freeze({ ...raw }),
      enumerable: false,
    });
  return instance;
}
