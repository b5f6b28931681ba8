import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, type LocalPlatform, startLocalPlatform } from '@genhub/testing';

const workspaceRoot = join(__dirname, '../../..');

/**
 * The console as a newcomer meets it: built, served by the built gateway at
 * /console beside a task-worker, driven in Debian's Chromium. Screenshots of
 * each screen go to dist/console-screenshots (a CI artifact).
 */
describe('the web console in a browser (built gateway + task-worker)', () => {
  let platform: LocalPlatform;
  let browser: Browser;
  let page: Page;
  let apiKey: string;
  const shots = join(workspaceRoot, 'dist', 'console-screenshots');

  beforeAll(async () => {
    const out = join(workspaceRoot, 'dist', `test-console-${process.pid}`);
    execFileSync('node', ['tools/console/build-console.mjs', '--out', out], {
      cwd: workspaceRoot,
      stdio: 'ignore',
    });
    platform = await startLocalPlatform('console', { CONSOLE_DIR: out });
    apiKey = await platform.accountWithKey(10);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    execFileSync('rm', ['-rf', join(workspaceRoot, 'dist', `test-console-${process.pid}`)]);
  });

  it('refuses a wrong key with the catalogue’s message, then signs in', async () => {
    await page.goto(`${platform.gateway}/console`);
    await page.getByLabel('API key').fill('gh_not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Invalid or revoked API key').waitFor();
    await page.screenshot({ path: join(shots, 'sign-in.png') });
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Models' }).waitFor();
    // The key lives for this browser session only unless the user asked.
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
  }, 30_000);

  it('runs the simulator from its generated form and shows the image', async () => {
    await page.getByRole('button', { name: /Simulator/ }).click();
    // The price before submitting, from the listing (the simulator: 0.001 on every tier).
    await page.getByText('Price: 0.001 per task').waitFor();
    await page.getByLabel(/^Prompt/).fill('a lighthouse at dawn');
    await page.getByLabel('Duration ms').fill('600');
    await page.getByRole('button', { name: 'Run' }).click();
    const image = page.getByRole('img', { name: 'Output 1' });
    await image.waitFor({ timeout: 15_000 });
    expect(
      await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
    await page.getByText('completed', { exact: true }).waitFor();
    await page.screenshot({ path: join(shots, 'playground-completed.png'), fullPage: true });
  }, 30_000);

  it('shows a failing task’s code and error, and a form error before any request', async () => {
    await page.getByLabel('Duration ms').fill('700000');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByText('Duration ms must be at most 600000').waitFor();
    await page.getByLabel('Duration ms').fill('');
    await page.getByLabel('Fail code').selectOption('1402');
    await page.getByRole('button', { name: 'Run' }).click();
    await page
      .getByRole('alert')
      .getByText(/Failed with code 1402/)
      .waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(shots, 'playground-failed.png'), fullPage: true });
  }, 30_000);
});
