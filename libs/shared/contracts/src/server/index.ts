// Server entry of the contracts lib: DTO classes (class-validator + OpenAPI
// decorators). Browser code imports `@genhub/contracts` instead.
export * from './dtos';
export { CONTRACT_MODELS, MODEL_INPUTS } from './openapi/contract-models';
export type { ModelInputContract } from './openapi/contract-models';
export { readOpenApiDocumentText } from './openapi-file';
