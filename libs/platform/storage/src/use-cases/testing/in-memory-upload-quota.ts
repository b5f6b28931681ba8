import type { CountedUpload, TicketClaim, UploadHeadroom, UploadQuota } from '../upload-quota.port';

/**
 * This lib's own specs' stand-in for the quota port: no quota, tickets kept in
 * a map (single use, given back on failure). Not exported: the real port is
 * the accounts domain's, tested on PostgreSQL and through the gateway.
 */
export class InMemoryUploadQuota implements UploadQuota {
  readonly uploads = new Map<
    string,
    Omit<CountedUpload, 'state'> & { state: CountedUpload['state'] | 'receiving' }
  >();

  async headroom(): Promise<UploadHeadroom> {
    return { leftBytes: Infinity, limitBytes: 0, heldBytes: 0 };
  }

  async record(upload: CountedUpload): Promise<void> {
    this.uploads.set(upload.key, { ...upload });
  }

  async claim(key: string): Promise<TicketClaim> {
    const upload = this.uploads.get(key);
    if (!upload) return 'unknown';
    if (upload.state !== 'ticketed') return 'used';
    upload.state = 'receiving';
    return 'claimed';
  }

  async release(key: string): Promise<void> {
    const upload = this.uploads.get(key);
    if (upload?.state === 'receiving') upload.state = 'ticketed';
  }

  async stored(key: string): Promise<void> {
    const upload = this.uploads.get(key);
    if (upload) upload.state = 'stored';
  }

  async forgetExpired(now: Date): Promise<number> {
    let forgotten = 0;
    for (const [key, upload] of this.uploads)
      if (upload.expiresAt <= now) forgotten += Number(this.uploads.delete(key));
    return forgotten;
  }
}
