export * from './config.module';
export * from './pieces.config';
export * from './env.decorator';
export * from './load-config.util';
export * from './signed-token.util';
export * from './redis.config';
export * from './production-mode.util';
export * from './static-token.util';
