import { Module } from '@nestjs/common';
import { AdminController } from './admin.controller';

/** The admin API; the use-cases come from the (global) AccountsFeatureModule. */
@Module({ controllers: [AdminController] })
export class AdminModule {}
