import { apiClientLabel } from './api-client-metrics.util';

describe('apiClientLabel', () => {
  it('names a known SDK, bounds the rest to other, and marks a missing header', () => {
    expect(apiClientLabel('wavespeed-js')).toBe('wavespeed-js');
    expect(apiClientLabel(' WaveSpeed-Python ')).toBe('wavespeed-python');
    expect(apiClientLabel(['wavespeed-js', 'x'])).toBe('wavespeed-js');
    expect(apiClientLabel('my-own-client-9f8e7d')).toBe('other');
    expect(apiClientLabel(undefined)).toBe('none');
  });
});
