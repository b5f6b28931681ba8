export * from './fake-server.util';
export * from './fal.util';
export { FakeOpenAi, error as openAiError } from './openai.util';
export * from './replicate.util';
