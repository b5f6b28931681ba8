export * from './private-network.util';
export * from './outbound-tls.util';
