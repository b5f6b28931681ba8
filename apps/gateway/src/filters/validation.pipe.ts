import { ValidationError, ValidationPipe } from '@nestjs/common';
import { AppErrorCode, AppException } from '@genhub/errors';

function flatten(errors: ValidationError[], parent = ''): { field: string; problems: string[] }[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, problems: Object.values(error.constraints) }] : [];
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** class-validator's findings → one 400 naming every bad field. */
export function validationException(errors: ValidationError[]): AppException {
  const found = flatten(errors);
  const fields = [...new Set(found.map((f) => f.field).filter(Boolean))];
  const problems = found.flatMap((f) =>
    f.field ? f.problems : ['request body must be a JSON object'],
  );
  return new AppException(AppErrorCode.InvalidRequest, {
    message: `Invalid request: ${problems.join('; ')}`,
    fields,
  });
}

/** Validate once at the edge: unknown fields refused, types transformed. */
export function gatewayValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: validationException,
  });
}
