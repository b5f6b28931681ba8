import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ChatCompletionRequestDto } from '@genhub/contracts/server';
import {
  AppErrorCode,
  AppException,
  insufficientBalanceMessage,
  keySpendLimitMessage,
  modelNotFoundMessage,
} from '@genhub/errors';
import { currencySymbol, formatAmount } from '@genhub/money';
import {
  ChatCatalogue,
  ChatModelDefinition,
  ChatRequest,
  ChatRoute,
  ChatUsage,
} from '@genhub/providers';
import { CHAT_LEDGER_PORT, ChatKey, ChatLedgerPort } from '../../ports/chat-ledger.port';
import { reservationBoundUnits, toChatRequest, tokenCostUnits } from './chat-pricing.util';

/** One paid completion: its id, model, routes and the reservation that covers it. */
export class ChatSession {
  private settled = false;
  readonly created = Math.floor(Date.now() / 1000);

  constructor(
    private readonly ledger: ChatLedgerPort,
    readonly accountId: string,
    readonly completionId: string,
    readonly model: ChatModelDefinition,
    readonly routes: ChatRoute[],
    readonly request: ChatRequest,
  ) {}

  /** The public id: `chatcmpl-<uuid>`. */
  get id(): string {
    return `chatcmpl-${this.completionId}`;
  }

  /** Charges the tokens used at the serving route's prices; the rest of the bound returns. */
  async capture(route: ChatRoute, usage: ChatUsage): Promise<void> {
    await this.ledger.capture({
      accountId: this.accountId,
      completionId: this.completionId,
      amountUnits: tokenCostUnits(route, usage),
    });
    this.settled = true;
  }

  /** Returns the whole reservation (failure, client gone); a no-op once settled. */
  async release(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    await this.ledger.release({ accountId: this.accountId, completionId: this.completionId });
  }
}

/**
 * Opens chat sessions: finds the model (404), builds the backend request,
 * reserves the upper bound of its cost (402 when it does not fit the
 * balance, or the calling key's spend limit).
 */
@Injectable()
export class ChatSessions {
  constructor(
    private readonly catalogue: ChatCatalogue,
    @Inject(CHAT_LEDGER_PORT) private readonly ledger: ChatLedgerPort,
  ) {}

  async open(
    accountId: string,
    body: ChatCompletionRequestDto,
    apiKey?: ChatKey,
  ): Promise<ChatSession> {
    const model = this.catalogue.find(body.model);
    if (!model)
      throw new AppException(AppErrorCode.ModelNotFound, {
        message: modelNotFoundMessage(body.model),
        param: 'model',
      });
    const routes = model.channels[model.defaultChannel] ?? [];
    const request = toChatRequest(body);
    const completionId = randomUUID();
    const amountUnits = reservationBoundUnits(routes, request);
    const reserved = await this.ledger.reserve({
      accountId,
      completionId,
      amountUnits,
      model: model.id,
      apiKey,
    });
    if (!reserved.ok && reserved.reason === 'key_limit')
      throw new AppException(AppErrorCode.KeySpendLimitReached, {
        message: keySpendLimitMessage(
          currencySymbol(reserved.currency),
          formatAmount(reserved.limitUnits),
          apiKey?.spendLimit?.period ?? 'total',
          formatAmount(reserved.spentUnits),
          formatAmount(amountUnits),
        ),
      });
    if (!reserved.ok)
      throw new AppException(AppErrorCode.InsufficientBalance, {
        message: insufficientBalanceMessage(
          currencySymbol(reserved.currency),
          formatAmount(reserved.availableUnits),
          formatAmount(amountUnits),
        ),
      });
    return new ChatSession(this.ledger, accountId, completionId, model, routes, request);
  }
}
