import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller';

/** `/openapi.json` and the `/docs` reference page. */
@Module({ controllers: [DocsController] })
export class DocsModule {}
