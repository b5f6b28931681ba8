import type { OpenAPIObject } from '@nestjs/swagger';
import { RESPONSE_FAMILY_EXTENSION } from './api-route.decorator';
import { finishOpenApiDocument } from './finish-document.util';

const MARK = { [RESPONSE_FAMILY_EXTENSION]: 'v1' };

/** The smallest document swagger could hand over: the slug route and whatever a test adds. */
function generated(paths: OpenAPIObject['paths']): OpenAPIObject {
  return {
    openapi: '3.0.3',
    info: { title: 't', version: '0' },
    paths: {
      '/v1/{provider_id}/{model_id}/{run_type}': {
        post: { ...MARK, operationId: 'submitTask', responses: {} },
      },
      ...paths,
    },
    components: { schemas: {} },
  };
}

describe('finishOpenApiDocument', () => {
  it('refuses a served route that no family decorator documents, naming it', () => {
    expect(() =>
      finishOpenApiDocument(generated({ '/v1/extra': { get: { responses: {} } } })),
    ).toThrow(/GET \/v1\/extra is served but not documented: give it @V1Route/);
  });
});
