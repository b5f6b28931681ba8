import { AppErrorCode, AppException } from '@genhub/errors';
import { toMicros } from '@genhub/money';

/** A validated interface amount → micro-units (a 400, never a 500, if it still does not fit). */
export function amountUnits(field: string, amount: number): number {
  try {
    return toMicros(amount);
  } catch (error) {
    throw new AppException(AppErrorCode.InvalidRequest, {
      message: `Invalid request: ${field} ${(error as Error).message.replace(/^amount /, '')}`,
      fields: [field],
    });
  }
}
