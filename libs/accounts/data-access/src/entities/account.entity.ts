import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Currency } from '@genhub/money';

export const ACCOUNT_LEVELS = ['Bronze', 'Silver', 'Gold', 'Platinum'] as const;
export type AccountLevel = (typeof ACCOUNT_LEVELS)[number];
export const ACCOUNT_STATUSES = ['active', 'suspended'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

@Entity({ schema: 'accounts', name: 'accounts' })
export class AccountEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('text') currency!: Currency;
  @Column('text', { name: 'account_level' }) accountLevel!: AccountLevel;
  @Column('text') status!: AccountStatus;
  /** `whsec_` + base64: the Standard Webhooks signing key. Shown once, at creation. */
  @Column('text', { name: 'webhook_secret' }) webhookSecret!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}
