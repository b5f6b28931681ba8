import { ConfigError } from '@genhub/config';
import { startTracing } from './start-tracing.util';

describe('startTracing', () => {
  it('does nothing unless OTEL_ENABLED is true', () => {
    expect(startTracing('gateway', {})).toBeUndefined();
    expect(startTracing('gateway', { OTEL_ENABLED: 'false' })).toBeUndefined();
  });

  it('refuses a malformed setting instead of silently not tracing', () => {
    expect(() => startTracing('gateway', { OTEL_ENABLED: 'yes please' })).toThrow(ConfigError);
    expect(() =>
      startTracing('gateway', { OTEL_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }),
    ).toThrow(ConfigError);
  });
});
