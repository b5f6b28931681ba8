/**
 * The per-account upload quotas and the single use of direct-upload tickets,
 * as the upload use-cases need them (decision 0129). This lib declares the
 * port; the app binds it (the gateway: the accounts domain's
 * `UploadQuotaService`, over `accounts.uploads`). Refusals are thrown as
 * `AppException`s: 403 `account_suspended`, 413 `upload_quota_exceeded`,
 * 429 `upload_daily_limit_reached`.
 */
export const UPLOAD_QUOTA = Symbol('UPLOAD_QUOTA');

/** What an account may still store, read before an upload's body is. */
export interface UploadHeadroom {
  /** Bytes it may still store; Infinity when stored bytes have no quota. */
  leftBytes: number;
  /** Its quota in bytes; 0 when none. */
  limitBytes: number;
  /** What its unexpired uploads hold now. */
  heldBytes: number;
}

/** One upload to count: a stored file, or a direct upload's ticket at its declared size. */
export interface CountedUpload {
  accountId: string;
  key: string;
  bytes: number;
  state: 'ticketed' | 'stored';
  now: Date;
  /** When it stops counting (and its file is swept). */
  expiresAt: Date;
}

/** What the PUT of a direct upload's ticket found: taken by this PUT, already used, or refused. */
export type TicketClaim = 'claimed' | 'used' | 'suspended' | 'unknown';

export interface UploadQuota {
  /**
   * Before any byte of an upload is read: throws the refusal (suspended, no
   * uploads left today, stored bytes full), else answers what is left.
   */
  headroom(accountId: string, now: Date): Promise<UploadHeadroom>;
  /**
   * Counts an upload, or throws the refusal; exact under concurrency (parallel
   * uploads of one account cannot together pass its quotas).
   */
  record(upload: CountedUpload): Promise<void>;
  /** The PUT of a ticket: `claimed` for exactly one of concurrent callers. */
  claim(key: string): Promise<TicketClaim>;
  /** The claimed PUT failed and stored nothing: the ticket may be used again. */
  release(key: string): Promise<void>;
  /** The claimed PUT stored its bytes. */
  stored(key: string): Promise<void>;
  /** Forgets uploads that stopped counting; answers how many. */
  forgetExpired(now: Date): Promise<number>;
}
