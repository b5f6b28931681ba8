import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AccountLevel } from '@genhub/contracts/server';
import type { Currency } from '@genhub/money';
import type { ApiKeyLimits } from '@genhub/accounts-data-access';

export type { AccountLevel };

/** Who is calling: set on the request by the API-key guard. */
export interface AuthenticatedAccount {
  id: string;
  currency: Currency;
  accountLevel: AccountLevel;
  /**
   * The operator's cap on the account's tasks running at once; null: none, the
   * default (issue 36). Submits hand it to the fair stage with the level.
   */
  maxConcurrentTasks: number | null;
  apiKeyId: string;
  /**
   * What the calling key may do beyond its account (issue 37): its models,
   * scopes and spend limit (an expired key never gets this far).
   */
  apiKeyLimits: ApiKeyLimits;
}

/** `@CurrentAccount() account: AuthenticatedAccount` in a controller behind the API-key guard. */
export const CurrentAccount = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuthenticatedAccount =>
    context.switchToHttp().getRequest<{ account: AuthenticatedAccount }>().account,
);
