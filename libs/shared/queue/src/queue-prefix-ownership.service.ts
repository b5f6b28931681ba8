import {
  Inject,
  Injectable,
  Logger,
  OnApplicationShutdown,
  OnModuleInit,
  Optional,
} from '@nestjs/common';
import { RedisConfig } from '@genhub/config';
import {
  checkQueuePrefix,
  InstallationIdentity,
  QueuePrefixTakenError,
} from './queue-prefix-claim.util';

/** Resolves this app's installation identity (its database); bound by the app's service shell. */
export const INSTALLATION_IDENTITY = Symbol('INSTALLATION_IDENTITY');
export type InstallationIdentitySource = () => Promise<InstallationIdentity>;

/** How long the start-up check waits for Redis and PostgreSQL before going on in the background. */
const FIRST_CHECK_MS = 5000;
const RETRY_MS = 1000;

/** The claim is not checked yet: nothing may be enqueued or consumed under the prefix. */
export class QueuePrefixUncheckedError extends Error {
  constructor() {
    super('the queue prefix is not checked yet (Redis or PostgreSQL unreachable since start-up)');
    this.name = 'QueuePrefixUncheckedError';
  }
}

/**
 * An installation owns its QUEUE_PREFIX (decision 0126): at start-up the app
 * claims the prefix for its database, or finds it already claimed by that
 * database, before any job is added or taken under it. When another database
 * owns the prefix the start fails with one line. When Redis or PostgreSQL is
 * unreachable at start-up the app starts anyway (decision 0022) and checks in
 * the background; workers and the outbox relay wait for the check
 * (`whenVerified`, `assertVerified`), and a prefix found taken then ends the process.
 * Without an identity source (a test module of one feature) nothing is checked.
 */
@Injectable()
export class QueuePrefixOwnership implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(QueuePrefixOwnership.name);
  private verified = false;
  private markVerified!: () => void;
  private readonly verifiedPromise = new Promise<void>((resolve) => (this.markVerified = resolve));
  private retry?: NodeJS.Timeout;
  private retrying?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly config: RedisConfig,
    @Optional()
    @Inject(INSTALLATION_IDENTITY)
    private readonly identity?: InstallationIdentitySource,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.identity) return this.succeed();
    try {
      await this.checkWithin(FIRST_CHECK_MS);
    } catch (error) {
      if (error instanceof QueuePrefixTakenError) throw error;
      this.logger.warn(
        `cannot check who owns QUEUE_PREFIX "${this.config.QUEUE_PREFIX}" yet (${(error as Error).message}); ` +
          'jobs are neither added nor taken until it is checked',
      );
      this.scheduleRetry();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.retrying; // its connection closes as it ends
  }

  /** Whether the prefix is known to be this installation's. */
  get isVerified(): boolean {
    return this.verified;
  }

  /** Throws QueuePrefixUncheckedError until the prefix is known to be ours. */
  assertVerified(): void {
    if (!this.verified) throw new QueuePrefixUncheckedError();
  }

  /** Resolves once the prefix is known to be ours (never, if the check keeps failing). */
  whenVerified(): Promise<void> {
    return this.verifiedPromise;
  }

  private async checkWithin(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      timer.unref();
    });
    try {
      await Promise.race([this.check(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async check(): Promise<void> {
    const us = await (this.identity as InstallationIdentitySource)().catch((error: Error) => {
      throw new Error(`PostgreSQL: ${error.message}`);
    });
    const outcome = await checkQueuePrefix(this.config, us).catch((error: Error) => {
      if (error instanceof QueuePrefixTakenError) throw error;
      throw new Error(`Redis: ${error.message}`);
    });
    if (outcome === 'claimed')
      this.logger.log(`QUEUE_PREFIX "${this.config.QUEUE_PREFIX}" claimed for ${us.description}`);
    this.succeed();
  }

  private succeed(): void {
    this.verified = true;
    this.markVerified();
    clearTimeout(this.retry);
  }

  private scheduleRetry(): void {
    if (this.stopped || this.verified) return;
    this.retry = setTimeout(() => {
      this.retrying = this.checkWithin(FIRST_CHECK_MS).catch((error: unknown) => {
        if (!(error instanceof QueuePrefixTakenError)) return this.scheduleRetry();
        // Checked late (Redis or PostgreSQL was away at start-up): a failed start all the same.
        this.logger.fatal(error.message);
        process.exit(1);
      });
    }, RETRY_MS);
    this.retry.unref();
  }
}
