import { Test } from '@nestjs/testing';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DocsModule } from './docs.module';

describe('DocsModule (no auth, no network)', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [DocsModule] }).compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(() => app.close());

  const get = (url: string) => app.getHttpAdapter().getInstance().inject({ method: 'GET', url });

  it('serves the checked-in openapi.json byte for byte', async () => {
    const answer = await get('/openapi.json');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const checkedIn = readFileSync(
      path.resolve(__dirname, '../../../../libs/shared/contracts/openapi.json'),
      'utf8',
    );
    expect(answer.body).toBe(checkedIn);
    expect(JSON.parse(answer.body).paths['/v1/requests/{request_id}']).toBeDefined();
  });

  it('serves a reference page that loads only same-origin assets', async () => {
    const page = await get('/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(2);
    for (const source of sources) expect(source.startsWith('/')).toBe(true);
    for (const source of sources) {
      const asset = await get(source);
      expect({ source, status: asset.statusCode }).toEqual({ source, status: 200 });
    }
    const bundle = await get('/docs/swagger-ui-bundle.js');
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    expect(bundle.body).toContain('SwaggerUIBundle');
    const init = await get('/docs/init.js');
    expect(init.body).toContain("url: '/openapi.json'");
  });
});
