export * from './catalogue/model-catalogue';
export * from './contract/model-adapter';
export * from './local/local-provider';
export * from './local/simulator-input.dto';
export * from './local/simulator.adapter';
export * from './providers.module';
export * from './registry/adapter-registry';
