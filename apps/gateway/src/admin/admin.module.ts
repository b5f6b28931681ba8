import { Module } from '@nestjs/common';
import { TasksFeatureModule } from '@genhub/tasks-feature';
import { AdminController } from './admin.controller';

/**
 * The admin API; the account use-cases come from the (global)
 * AccountsFeatureModule, the queue by account from the tasks domain's reads.
 */
@Module({ imports: [TasksFeatureModule], controllers: [AdminController] })
export class AdminModule {}
