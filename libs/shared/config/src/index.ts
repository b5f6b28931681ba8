export * from './config.module';
export * from './config.pieces';
export * from './env.decorators';
export * from './load-config';
