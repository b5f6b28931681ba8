export * from './private-network.guard';
