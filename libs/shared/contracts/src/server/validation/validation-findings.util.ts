import type { ValidationError } from 'class-validator';

/** One constraint class-validator found broken, at a dotted field path (`messages.0.content`). */
export interface ValidationFinding {
  field: string;
  /** The constraint's name (`isString`, `whitelistValidation`, …). */
  constraint: string;
  message: string;
}

/**
 * class-validator's error tree as a flat list, nested fields dotted: the one
 * flattener behind every "Invalid request: …" answer (the gateway's pipe and
 * the submit's per-model parameter check).
 */
export function validationFindings(errors: ValidationError[], parent = ''): ValidationFinding[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([constraint, message]) => ({
      field,
      constraint,
      message,
    }));
    return [...own, ...validationFindings(error.children ?? [], field)];
  });
}
