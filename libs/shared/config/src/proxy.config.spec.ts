import { ConfigError, loadConfig } from './load-config.util';
import { ProxyConfig } from './pieces.config';

const trustProxy = (TRUST_PROXY?: string) => loadConfig(ProxyConfig, { TRUST_PROXY }).trustProxy;

describe('ProxyConfig (TRUST_PROXY)', () => {
  it('trusts no proxy by default', () => {
    expect(trustProxy()).toBe(false);
    expect(trustProxy('')).toBe(false);
    expect(trustProxy('false')).toBe(false);
    expect(trustProxy('0')).toBe(false);
  });

  it('takes a hop count, or proxy addresses, CIDRs and proxy-addr range names', () => {
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy('10.0.0.5')).toEqual(['10.0.0.5']);
    expect(trustProxy(' 10.0.0.0/8, fd00::/8 ,loopback')).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
      'loopback',
    ]);
  });

  it.each(['true', '*', '11', 'proxy.internal', '10.0.0.0/33', '10.0.0.1/8/1', 'fd00::/129'])(
    'refuses %s with one line naming the variable',
    (value) => {
      expect(() => trustProxy(value)).toThrow(ConfigError);
      expect(() => trustProxy(value)).toThrow(
        `Invalid configuration: TRUST_PROXY must be false, a hop count from 1 to 10, or comma-separated proxy addresses or CIDRs (10.0.0.0/8, loopback) (got ${JSON.stringify(value)})`,
      );
    },
  );
});
