import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import {
  CONTRACT_MODELS,
  finishOpenApiDocument,
  openApiDocumentConfig,
} from '@genhub/contracts/server';
import { AppModule } from '../app.module';

/**
 * The configuration the gateway's modules need to be declared. Nothing is
 * connected: the application is created in preview mode (no provider is
 * instantiated), so these values are never used.
 */
const DOCUMENT_ONLY_ENV: NodeJS.ProcessEnv = {
  DATABASE_URL: 'postgres://openapi@127.0.0.1:1/openapi',
  REDIS_URL: 'redis://127.0.0.1:1',
  // The admin routes are public interface (docs/interface.md, "Admin API"); they exist when a
  // token is set.
  ADMIN_TOKEN: 'openapi-document-only',
  // Required by the gateway (no default); never used in preview mode.
  API_KEY_PEPPER: 'openapi-document-only',
};

/**
 * The OpenAPI document of the public interface, derived from the gateway's
 * controllers (their routes and `@V1Route`/`@V3Route`/`@ChatRoute`/`@AdminRoute`
 * decorators) and the contracts' DTOs, then finished by the contracts lib.
 * `npm run contracts:generate` writes it to libs/shared/contracts/openapi.json.
 */
export async function buildApiDocument(): Promise<OpenAPIObject> {
  const app = await NestFactory.create(AppModule.forRoot(DOCUMENT_ONLY_ENV), new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    const generated = SwaggerModule.createDocument(app, openApiDocumentConfig(), {
      extraModels: [...CONTRACT_MODELS],
      operationIdFactory: (_controller, method) => method,
    });
    return finishOpenApiDocument(generated);
  } finally {
    await app.close();
  }
}
