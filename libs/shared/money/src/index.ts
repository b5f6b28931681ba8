export * from './money.util';
