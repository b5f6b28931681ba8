import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium, until } from '@genhub/testing';
import { RunningGateway, startGateway } from '../test/gateway-harness.util';

const CONSOLE_POLICY = [
  "default-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https://files.example.com",
  "media-src 'self' https://files.example.com",
  "frame-src 'self' https://files.example.com",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
].join('; ');

const DOCS_POLICY = [
  "default-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
].join('; ');

const PAGE = {
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

const headersOf = async (url: string, init: RequestInit = {}) => {
  const answer = await fetch(url, { redirect: 'manual', ...init });
  await answer.arrayBuffer();
  return Object.fromEntries(answer.headers);
};

/**
 * The gateway's pages (the console, /docs) are where an API key and the admin
 * token live: they answer with a strict Content-Security-Policy and may not
 * be framed; the API's answers get nosniff only; HSTS only over HTTPS as a
 * trusted proxy reports it (decision 0128).
 */
describe('security headers (in-process gateway)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'genhub-security-headers-'));
  let gw: RunningGateway;

  beforeAll(async () => {
    // A console build stand-in: the gateway serves whatever CONSOLE_DIR holds.
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    gw = await startGateway({
      CONSOLE_DIR: dir,
      STORAGE_DIR: join(dir, 'objects'),
      CDN_URL: 'https://files.example.com/media',
      TRUST_PROXY: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the console: a strict policy, never framed, no referrer', async () => {
    for (const path of ['/console/', '/console/index.html', '/console']) {
      const headers = await headersOf(`${gw.url}${path}`);
      expect({ path, ...headers }).toMatchObject({
        path,
        ...PAGE,
        'content-security-policy': CONSOLE_POLICY,
      });
    }
  });

  it('/docs and its files: Swagger UI’s policy, never framed', async () => {
    for (const path of ['/docs', '/docs/init.js', '/docs?x=1']) {
      const headers = await headersOf(`${gw.url}${path}`);
      expect({ path, ...headers }).toMatchObject({
        path,
        ...PAGE,
        'content-security-policy': DOCS_POLICY,
      });
    }
  });

  it('the API’s answers: nosniff, no page headers', async () => {
    for (const path of ['/v1/balance', '/api/v3/predictions/x/result', '/openapi.json', '/nope']) {
      const headers = await headersOf(`${gw.url}${path}`);
      expect({ path, nosniff: headers['x-content-type-options'] }).toEqual({
        path,
        nosniff: 'nosniff',
      });
      expect(headers['content-security-policy']).toBeUndefined();
      expect(headers['x-frame-options']).toBeUndefined();
    }
  });

  it('HSTS only when the request came over HTTPS, as the trusted proxy says', async () => {
    const plain = await headersOf(`${gw.url}/console/`);
    expect(plain['strict-transport-security']).toBeUndefined();
    for (const path of ['/console/', '/docs', '/v1/balance']) {
      const secure = await headersOf(`${gw.url}${path}`, {
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect({ path, hsts: secure['strict-transport-security'] }).toEqual({
        path,
        hsts: 'max-age=31536000',
      });
    }
  });

  describe('in a browser', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    }, 60_000);
    afterAll(() => browser?.close());

    it('/docs renders the reference under its policy, with no violation', async () => {
      const page = await browser.newPage();
      const violations: string[] = [];
      // Chromium reports each blocked load or script on the console.
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      const answer = await page.goto(`${gw.url}/docs`);
      expect(answer?.headers()['content-security-policy']).toBe(DOCS_POLICY);
      await page.locator('.swagger-ui .info .title').waitFor({ timeout: 30_000 });
      // An operation opened: its parameters and answers render too.
      await page.locator('.opblock-summary').first().click();
      await page.locator('.opblock-body').first().waitFor();
      expect(violations).toEqual([]);
      await page.close();
    }, 60_000);

    it('a page that frames the console or /docs is refused, even on the same origin', async () => {
      const page = await browser.newPage();
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/frame-ancestors 'none'.*blocked/.test(message.text())) refused.push(message.text());
      });
      await page.goto(`${gw.url}/openapi.json`);
      await page.setContent(
        `<iframe src="${gw.url}/console/"></iframe><iframe src="${gw.url}/docs"></iframe>`,
      );
      await until(async () => refused.length >= 2, 10_000).catch(() => undefined);
      expect(refused).toHaveLength(2);
      for (const frame of page.frames().slice(1))
        expect(
          await frame
            .locator('#swagger-ui')
            .count()
            .catch(() => 0),
        ).toBe(0);
      await page.close();
    }, 30_000);
  });
});
