import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

  it('lists the tasks in the history, opens one with its input and error, and deletes it', async () => {
    await page.getByRole('link', { name: 'History' }).click();
    const rows = page.locator('table.tasks tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    // Newest first: the failed task, then the completed one.
    expect(await rows.nth(0).locator('td').nth(2).innerText()).toBe('failed (1402)');
    expect(await rows.nth(1).locator('td').nth(2).innerText()).toBe('completed');
    await page.getByLabel('Status').selectOption('completed');
    await page.waitForFunction(
      () => document.querySelectorAll('table.tasks tbody tr').length === 1,
    );
    await page.getByLabel('Status').selectOption('');
    await page.waitForFunction(
      () => document.querySelectorAll('table.tasks tbody tr').length === 2,
    );

    await rows.nth(0).getByRole('button').click();
    await page.getByText(/"fail_code": 1402/).waitFor();
    await page.getByText('No webhook for this task.').waitFor();
    await page.screenshot({ path: join(shots, 'task-detail.png'), fullPage: true });
    await page.getByRole('button', { name: 'Delete task' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('heading', { name: 'History' }).waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('table.tasks tbody tr').length === 1,
    );
    expect(await rows.nth(0).locator('td').nth(2).innerText()).toBe('completed');
  }, 30_000);

  it('shows the balance and tier, the day’s cost in the chart and totals, the records, and exports CSV', async () => {
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByText('Balance:').waitFor();
    // 10 topped up, 0.001 captured for the completed task; the failed one was released.
    expect(await page.locator('.balance').innerText()).toMatch(/^Balance: 9\.999 USD · tier \w+$/);
    await page.locator('.totals').waitFor();
    expect(await page.locator('.totals').innerText()).toBe('1 task(s), 0.001 USD in this range');
    await page.getByRole('img', { name: 'Daily cost by category, in USD' }).waitFor();
    // One category; its days add up to the range's total (whatever side of midnight it ran).
    const daily = await page.locator('.chart tbody td').allInnerTexts();
    expect(daily.reduce((sum, cost) => sum + Number(cost), 0)).toBeCloseTo(0.001, 9);
    await page.locator('table.records tbody tr').first().waitFor();
    await page.getByLabel('Type').selectOption('usage');
    await page.waitForFunction(
      () => document.querySelectorAll('table.records tbody tr').length === 1,
    );
    expect(await page.locator('table.records tbody tr td').allInnerTexts()).toEqual([
      expect.any(String),
      'usage',
      '-0.001',
      'local/simulator/test',
      '9.999',
    ]);
    await page.screenshot({ path: join(shots, 'usage.png'), fullPage: true });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV of the range' }).click(),
    ]);
    const csv = readFileSync((await download.path()) as string, 'utf8')
      .trim()
      .split('\n');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain('local/simulator/test');
  }, 30_000);
});
