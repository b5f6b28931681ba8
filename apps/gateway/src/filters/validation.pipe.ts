import { ValidationError, ValidationPipe } from '@nestjs/common';
import { validationFindings } from '@genhub/contracts/server';
import { AppErrorCode, AppException } from '@genhub/errors';

/** class-validator's findings → one 400 naming every bad field. */
export function validationException(errors: ValidationError[]): AppException {
  const found = validationFindings(errors);
  const fields = [...new Set(found.map((f) => f.field).filter(Boolean))];
  const problems = found.map((f) => (f.field ? f.message : 'request body must be a JSON object'));
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
