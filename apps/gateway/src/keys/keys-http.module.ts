import { Module } from '@nestjs/common';
import { KeysController } from './keys.controller';

/**
 * `/api/v3/keys` (issue 37): the use-cases and the ApiKeyGuard come from the
 * (global) AccountsFeatureModule in the gateway's AppModule.
 */
@Module({ controllers: [KeysController] })
export class KeysHttpModule {}
