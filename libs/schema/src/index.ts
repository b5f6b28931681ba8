export * from './all-migrations.constants';
