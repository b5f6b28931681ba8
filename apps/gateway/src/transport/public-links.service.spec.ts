import type { FastifyRequest } from 'fastify';
import { loadConfig, StorageConfig } from '@genhub/config';
import { PublicLinks } from './public-links.service';

const request = { protocol: 'http', host: '10.0.0.5:3100' } as FastifyRequest;
const links = (env: Record<string, string>) => new PublicLinks(loadConfig(StorageConfig, env));

describe('PublicLinks', () => {
  it('points links at PUBLIC_BASE_URL when it is set, whatever host the client called', () => {
    const set = links({ PUBLIC_BASE_URL: 'https://api.example.com/genhub/' });
    expect(set.origin(request)).toBe('https://api.example.com/genhub');
    expect(set.predictionResultUrl(request, 't1')).toBe(
      'https://api.example.com/genhub/api/v3/predictions/t1/result',
    );
  });

  it('points links back at the address the client called when it is unset', () => {
    expect(links({}).predictionResultUrl(request, 't1')).toBe(
      'http://10.0.0.5:3100/api/v3/predictions/t1/result',
    );
  });

  it('keeps file URLs on PUBLIC_BASE_URL, or CDN_URL when that is set', () => {
    expect(loadConfig(StorageConfig, { PUBLIC_BASE_URL: 'http://127.0.0.1:3100' }).cdnUrl).toBe(
      'http://127.0.0.1:3100/cdn',
    );
    expect(loadConfig(StorageConfig, {}).cdnUrl).toBe('http://127.0.0.1:3000/cdn');
    expect(
      loadConfig(StorageConfig, {
        PUBLIC_BASE_URL: 'http://a',
        CDN_URL: 'https://cdn.example.com/',
      }).cdnUrl,
    ).toBe('https://cdn.example.com');
  });
});
