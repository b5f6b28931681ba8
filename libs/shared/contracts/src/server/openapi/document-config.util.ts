import { DocumentBuilder, type OpenAPIObject } from '@nestjs/swagger';
import type { ApiTagName } from './api-route.decorator';
import { ERROR_RESPONSES } from './error-responses.constants';

/**
 * The document's version: bump on any change of the public interface (docs/interface.md,
 * "Versioning").
 */
export const CONTRACTS_VERSION = '1.7.0';

const TAGS: Record<ApiTagName, string> = {
  Tasks: 'Submit tasks, read results, delete tasks.',
  Account: 'Balance.',
  Models: 'The model catalogue.',
  Billing: 'Billing records, export and usage.',
  Files: 'Uploads for use as model inputs.',
  Webhooks: 'Webhook delivery records.',
  Keys: "The account's own API keys and their limits (scope `keys:manage`).",
  Chat: 'OpenAI-compatible chat endpoints.',
  Replicate:
    'Replicate-compatible predictions (`/replicate/v1`), for Replicate’s official client: a model is `{provider_id}/{model_id}`, a version `{provider_id}~{model_id}~{run_type}`.',
  Admin: 'The operator API (`/admin/v1`): accounts, API keys, top-ups, suspension.',
};

/**
 * Everything the document says that belongs to no single route: title,
 * version, tags, the security schemes (the API key by default, the admin
 * token and the event-stream token where a route says so) and the reusable error responses.
 */
export function openApiDocumentConfig(): Omit<OpenAPIObject, 'paths'> {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.0.3')
    .setTitle('genhub public API')
    .setDescription(
      'Submit generation tasks, read their results (by polling, synchronously or by webhook), list models, and query billing, usage and balance. `/v1/` answers carry no envelope; `/api/v3/` answers are wrapped in `{code, message, data}`.',
    )
    .setVersion(CONTRACTS_VERSION)
    .addServer('/', 'The gateway serving this document')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: undefined,
        description: '`Authorization: Bearer <API_KEY>`',
      },
      'bearerAuth',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: undefined,
        description:
          '`Authorization: Bearer <ADMIN_TOKEN>`; the admin API exists only when `ADMIN_TOKEN` is set.',
      },
      'adminBearer',
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'query',
        name: 'token',
        description:
          'A task event stream only: the short-lived token of `POST /api/v3/predictions/{task_id}/events/token`, for `EventSource` (which cannot send headers).',
      },
      'eventsToken',
    )
    .addSecurityRequirements('bearerAuth');
  for (const [name, description] of Object.entries(TAGS)) builder.addTag(name, description);
  const config = builder.build();
  return {
    ...config,
    info: { ...config.info, license: { name: 'UNLICENSED' } },
    components: { ...config.components, responses: ERROR_RESPONSES },
  };
}
