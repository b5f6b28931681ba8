import { Injectable } from '@nestjs/common';
import { AppException } from '@genhub/errors';
import { TaskResultLoader } from '../../services/task-result-loader.service';
import { EventsTokens } from './events-token.service';

export interface IssueEventsTokenInput {
  accountId: string;
  /** The caller's key: the token stops working when it is revoked. */
  apiKeyId: string;
  taskId: string;
}

/** POST /api/v3/predictions/{id}/events/token: a token for the caller's own, undeleted task. */
@Injectable()
export class IssueEventsTokenUseCase {
  constructor(
    private readonly results: TaskResultLoader,
    private readonly tokens: EventsTokens,
  ) {}

  async execute(input: IssueEventsTokenInput): Promise<{ token: string; expiresAt: Date }> {
    if (!(await this.results.load(input.accountId, input.taskId)))
      throw new AppException('not_found');
    return this.tokens.issue(
      { accountId: input.accountId, apiKeyId: input.apiKeyId },
      input.taskId,
    );
  }
}
