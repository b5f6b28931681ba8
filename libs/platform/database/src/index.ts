export * from './data-source.factory';
export * from './database.module';
