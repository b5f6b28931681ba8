export * from './private-network.util';
