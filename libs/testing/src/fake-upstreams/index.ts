export * from './fake-server';
export * from './fal';
export { FakeOpenAi, error as openAiError } from './openai';
export * from './replicate';
