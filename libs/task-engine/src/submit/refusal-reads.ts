import type { ReserveInput, ReserveRefusal } from '@genhub/billing-data-access';

/** The read that explains a refusal: what the account has left, what the key has spent. */
export type ExplainRefusal = (input: ReserveInput) => Promise<ReserveRefusal>;

/**
 * Why a submit was refused, read once for the submits refused together.
 *
 * A burst against an exhausted balance or key limit is refused a batch at a
 * time (the account's line commits its waiters together), and each refusal
 * used to read its own explanation: up to two queries per refused submit, which
 * kept the pool busy for longer than a waiting submit may wait (a 503). Now
 * the refusals of one account, key and price that arrive before the read
 * starts share it. A read starts after every refusal it answers was decided,
 * so its figures are never older than the state that refused them; a refusal
 * decided once it has started waits for the next.
 */
export class RefusalReads {
  private readonly waiting = new Map<string, Promise<ReserveRefusal>>();

  constructor(private readonly explain: ExplainRefusal) {}

  read(input: ReserveInput): Promise<ReserveRefusal> {
    const key = JSON.stringify([
      input.accountId,
      input.apiKeyId,
      input.amountUnits,
      input.keyLimit?.limitUnits ?? null,
      input.keyLimit?.periodStart.getTime() ?? null,
    ]);
    let read = this.waiting.get(key);
    if (!read) {
      read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        // Started: a refusal decided from now on waits for the next read.
        this.waiting.delete(key);
        return this.explain(input);
      });
      this.waiting.set(key, read);
    }
    return read;
  }
}
