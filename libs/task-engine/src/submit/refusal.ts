import type { SpendPeriod } from '@genhub/contracts';
import type { ReserveRefusal } from '@genhub/billing-data-access';
import { AppException, insufficientBalanceMessage, keySpendLimitMessage } from '@genhub/errors';
import { currencySymbol, formatAmount } from '@genhub/money';

/**
 * The 402 of a refused reservation: insufficient_balance with what the
 * account has left, or key_spend_limit_reached with the key's limit, its
 * period and what the period has spent (issue 37).
 */
export function refusalException(
  refusal: ReserveRefusal,
  limit: { period: SpendPeriod } | null,
  requiredUnits: number,
): AppException {
  const symbol = currencySymbol(refusal.currency);
  if (refusal.reason === 'key_limit')
    return new AppException('key_spend_limit_reached', {
      message: keySpendLimitMessage(
        symbol,
        formatAmount(refusal.limitUnits),
        limit?.period ?? 'total',
        formatAmount(refusal.spentUnits),
        formatAmount(requiredUnits),
      ),
    });
  return new AppException('insufficient_balance', {
    message: insufficientBalanceMessage(
      symbol,
      formatAmount(refusal.availableUnits),
      formatAmount(requiredUnits),
    ),
  });
}
