import { DynamicModule, Module } from '@nestjs/common';
import { AccountsFeatureModule, UploadQuotaService } from '@genhub/accounts-feature';
import { BillingDataAccessModule } from '@genhub/billing-data-access';
import { ServiceModule } from '@genhub/service';
import {
  IssueUploadTicketUseCase,
  ReceiveDirectUploadUseCase,
  StorageModule,
  SweepExpiredUploadsUseCase,
  UPLOAD_QUOTA,
  UploadFileUseCase,
} from '@genhub/storage';
import { AdminModule } from './admin/admin.module';
import { FairStageAccountScheduling } from './admin/fair-stage-account-scheduling.adapter';
import { LedgerAccountBalances } from './admin/ledger-account-balances.adapter';
import { BillingHttpModule } from './billing/billing-http.module';
import { CdnController } from './cdn/cdn.controller';
import { ChatHttpModule } from './chat/chat-http.module';
import { DocsModule } from './docs/docs.module';
import { KeysHttpModule } from './keys/keys-http.module';
import { ReplicateHttpModule } from './replicate/replicate-http.module';
import { FilesController } from './files/files.controller';
import { MediaUploadsController } from './files/media-uploads.controller';
import { UploadRetentionScheduler } from './files/upload-retention.scheduler';
import { GatewayExceptionFilter } from './filters/gateway-exception.filter';
import { OpenAiMediaHttpModule } from './openai-media/openai-media-http.module';
import { GATEWAY_TASK_ENGINE, TasksHttpModule } from './tasks/tasks-http.module';
import { WebhooksHttpModule } from './webhooks/webhooks-http.module';
import { PublicLinks } from './transport/public-links.service';

/** The public API, the admin API and (in embedded mode) the /cdn route. */
@Module({})
export class AppModule {
  static forRoot(env: NodeJS.ProcessEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceModule.forRoot('gateway', env),
        StorageModule.forRoot(),
        // Authentication is global: every HTTP module below uses its guard.
        AccountsFeatureModule.forRoot({
          imports: [BillingDataAccessModule, GATEWAY_TASK_ENGINE],
          balances: LedgerAccountBalances,
          scheduling: FairStageAccountScheduling,
        }),
        AdminModule,
        TasksHttpModule,
        BillingHttpModule,
        WebhooksHttpModule,
        KeysHttpModule,
        ChatHttpModule.forRoot(),
        ReplicateHttpModule,
        OpenAiMediaHttpModule,
        DocsModule,
      ],
      controllers: [CdnController, FilesController, MediaUploadsController],
      providers: [
        GatewayExceptionFilter,
        UploadFileUseCase,
        IssueUploadTicketUseCase,
        ReceiveDirectUploadUseCase,
        SweepExpiredUploadsUseCase,
        UploadRetentionScheduler,
        // The storage lib's uploads count against the accounts' quotas (decision 0129).
        UploadQuotaService,
        { provide: UPLOAD_QUOTA, useExisting: UploadQuotaService },
        PublicLinks,
      ],
    };
  }
}
