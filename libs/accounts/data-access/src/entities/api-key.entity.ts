import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'accounts', name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'account_id' }) accountId!: string;
  @Column('text', { nullable: true }) name!: string | null;
  /** The key's first characters (`gh_` + 8): identifies it in logs, never enough to use it. */
  @Column('text') prefix!: string;
  /** HMAC-SHA256(API_KEY_PEPPER, plain key), hex. */
  @Column('text', { name: 'key_hash' }) keyHash!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt!: Date | null;
}
