export * from './auth/authenticated-account';
