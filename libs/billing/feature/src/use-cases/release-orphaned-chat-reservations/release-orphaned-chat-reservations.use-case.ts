import { Injectable } from '@nestjs/common';
import { CHAT_CATEGORY, LedgerRepository } from '@genhub/billing-data-access';

export interface ReleaseOrphanedChatReservationsInput {
  /** Chat reservations open longer than this are orphaned (the audit's horizon). */
  olderThanMs: number;
}

/**
 * Releases chat reservations whose gateway stopped before settling them (it
 * died mid-stream): a chat completion has no task row, so nothing else ever
 * would. The caller is not charged, since what the upstream used is unknown.
 * Run before each ledger audit, with its horizon, far beyond any chat
 * request's time limit, so a live stream's reservation is never touched.
 */
@Injectable()
export class ReleaseOrphanedChatReservationsUseCase {
  constructor(private readonly ledger: LedgerRepository) {}

  execute(input: ReleaseOrphanedChatReservationsInput) {
    return this.ledger.releaseStale({ category: CHAT_CATEGORY, olderThanMs: input.olderThanMs });
  }
}
