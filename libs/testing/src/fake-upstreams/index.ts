export * from './upstream-server.fake';
export * from './fal.fake';
export { FakeOpenAi, error as openAiError } from './openai.fake';
export * from './replicate.fake';
