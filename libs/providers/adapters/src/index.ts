export * from './contract/model-adapter';
