// Server entry of the contracts lib: DTO classes (class-validator + OpenAPI
// decorators). Browser code imports `@genhub/contracts` instead.
export * from './dtos';
// (`./dtos` includes the model input DTOs and MODEL_INPUTS, kind → input class.)
export {
  CONTRACT_MODELS,
  MODEL_INPUT_CLASSES,
  MODEL_SUBMIT_PATHS,
} from './openapi/contract-models.constants';
export type { ModelInputContract } from './openapi/contract-models.constants';
export { readOpenApiDocumentText } from './openapi-file.util';
export { inputJsonSchema, type JsonSchema } from './openapi/input-json-schema.util';
export * from './validation/validation-findings.util';
export {
  AdminRoute,
  ChatRoute,
  ReplicateRoute,
  V1Route,
  V3Route,
} from './openapi/api-route.decorator';
export type { ApiRouteDoc, ApiTagName } from './openapi/api-route.decorator';
export { openApiDocumentConfig, CONTRACTS_VERSION } from './openapi/document-config.util';
export { finishOpenApiDocument } from './openapi/finish-document.util';
export { taskFinishedCallback } from './openapi/webhook-callback.constants';
