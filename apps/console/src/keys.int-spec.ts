import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  launchChromium,
  type LocalPlatform,
  seriousAccessibilityViolations,
  startLocalPlatform,
  until,
} from '@genhub/testing';

const workspaceRoot = join(__dirname, '../../..');

/**
 * Keys that carry their own limits (issue 37), as the console shows them: the
 * built console served by the built gateway beside a task-worker, driven in
 * Debian's Chromium. An account's key with keys:manage creates a key limited
 * to two simulator tasks a day, sees it once, spends it from outside the
 * browser until the API refuses, and sees the refusal's effect on the page;
 * the operator raises the limit on the account's page. Screens are saved to
 * dist/console-screenshots and checked by axe-core.
 */
describe('API keys with limits in the web console (built gateway + task-worker)', () => {
  let platform: LocalPlatform;
  let browser: Browser;
  let page: Page;
  let apiKey: string;
  /** The key created on the page: limited to 0.002 a day (two simulator tasks at 0.001). */
  let limitedKey: string;
  const contexts: BrowserContext[] = [];
  const shots = join(workspaceRoot, 'dist', 'console-screenshots');
  const out = join(workspaceRoot, 'dist', `test-console-keys-${process.pid}`);

  /** Every Content-Security-Policy violation any page reports (decision 0128). */
  const violations: string[] = [];
  function watchPolicy(on: Page): Page {
    on.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    return on;
  }

  beforeAll(async () => {
    execFileSync('node', ['tools/console/build-console.mjs', '--out', out], {
      cwd: workspaceRoot,
      stdio: 'ignore',
    });
    platform = await startLocalPlatform('console-keys', { CONSOLE_DIR: out });
    apiKey = await platform.accountWithKey(10);
    browser = await launchChromium();
    page = watchPolicy(await browser.newPage({ viewport: { width: 1200, height: 900 } }));
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await platform?.stop();
    execFileSync('rm', ['-rf', out]);
  });

  /** Saves the screen and expects no serious accessibility violation on it. */
  async function screen(name: string, on: Page = page) {
    await on.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    expect(await seriousAccessibilityViolations(on)).toEqual([]);
  }

  /** A page of its own browser context (its own session storage), signed in with `key`. */
  async function signedIn(key: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    contexts.push(context);
    const other = watchPolicy(await context.newPage());
    await other.goto(`${platform.gateway}/console/`);
    await other.getByLabel('API key').fill(key);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByRole('heading', { name: 'Models' }).waitFor();
    return other;
  }

  /** A simulator task submitted with `key`, from outside the browser: the answer's status and body. */
  async function submit(key: string, route: 'api/v3' | 'v1' = 'api/v3') {
    const answer = await fetch(`${platform.gateway}/${route}/local/simulator/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'spend it' }),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  }

  /** The keys table's row of the key named `name`. */
  const row = (on: Page, name: string) =>
    on
      .locator('table.keys tbody tr')
      .filter({ has: on.locator('.key-name').getByText(name, { exact: true }) });

  it('creates a key with limits on the account’s own page, and shows the key once', async () => {
    await page.goto(`${platform.gateway}/console/`);
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    // The signing-in key is the account's only one so far.
    await page.locator('table.keys tbody tr').first().waitFor();
    expect(await page.locator('table.keys tbody tr').count()).toBe(1);

    // Checked before any request: a model pattern that is none.
    await page.getByLabel(/^Allowed models/).fill('local/*\nnot a pattern');
    await page.getByRole('button', { name: 'Create a key' }).click();
    await page.getByRole('alert').getByText('"not a pattern" is not a model pattern').waitFor();

    await page.getByLabel('Key name (optional)').fill('batch');
    await page.getByLabel(/^Allowed models/).fill('local/*');
    await page.getByLabel(/^Spend limit \(USD\)/).fill('0.002');
    await page.getByLabel('Period').selectOption('day');
    await page.getByLabel('keys:manage').uncheck();
    await page.getByRole('button', { name: 'Create a key' }).click();
    limitedKey = await page.locator('.secret code').innerText();
    expect(limitedKey).toMatch(/^gh_/);
    const batch = row(page, 'batch');
    await batch.waitFor();
    expect(await batch.locator('td.limits').innerText()).toMatch(
      /^Models: local\/\*\nScopes: tasks:write, tasks:read, billing:read, files:write\nExpires: never$/,
    );
    expect(await batch.locator('td.spent').innerText()).toBe('0 of 0.002 USD today (UTC)');
    await screen('keys-created');

    // Shown once: another page and back, and the key is nowhere on it.
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('link', { name: 'API keys' }).click();
    await batch.waitFor();
    expect(await page.locator('.secret').count()).toBe(0);
    expect(await page.content()).not.toContain(limitedKey);
  }, 45_000);

  it('spends the key to its limit from outside: two tasks accepted, then 402 key_spend_limit_reached; the page shows spent = limit', async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await submit(limitedKey));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 402]);
    expect(answers[2].body).toEqual({
      code: 402,
      message: expect.stringMatching(/^API key spend limit reached\b/),
      data: null,
    });
    // The /v1/ family: refused like an insufficient balance, with the key's own inner code.
    const v1 = await submit(limitedKey, 'v1');
    expect(v1).toEqual({
      status: 402,
      body: {
        code: 402,
        error: { code: 1301, error: expect.stringMatching(/^API key spend limit reached\b/) },
      },
    });

    await page.reload();
    const spent = row(page, 'batch').locator('td.spent');
    await spent.getByText('0.002 of 0.002 USD today (UTC) — limit reached').waitFor();
    expect(
      await spent.locator('meter').evaluate((m: HTMLMeterElement) => [m.value, m.max]),
    ).toEqual([0.002, 0.002]);
    await screen('keys-limit-reached');

    // The key's holder, in the console: the refusal with its own hint (not "top up").
    const holder = await signedIn(limitedKey);
    await holder.getByRole('button', { name: /Simulator/ }).click();
    await holder.getByLabel(/^Prompt/).fill('one more');
    await holder.getByRole('button', { name: 'Run' }).click();
    await holder
      .getByRole('alert')
      .getByText(/^API key spend limit reached.*raise the key's spend limit/)
      .waitFor();
    await screen('keys-refused-in-playground', holder);
  }, 45_000);

  it('splits the usage by key: the limited key’s two tasks apart from the account’s three, in the CSV too', async () => {
    // One task of the account's first key beside them.
    expect((await submit(apiKey)).status).toBe(200);
    // All three charged (usage counts captured charges; the capture follows the completion).
    await until(
      async () => {
        const answer = await fetch(`${platform.gateway}/api/v3/billings?type=usage`, {
          headers: { authorization: `Bearer ${apiKey}` },
        });
        return ((await answer.json()) as { data: { total: number } }).data.total === 3;
      },
      { ms: 20_000, every: 200, what: 'the three tasks charged' },
    );
    await page.getByRole('link', { name: 'Usage' }).click();
    const choice = page.getByLabel('API key');
    const batch = await choice.locator('option', { hasText: /^batch \(gh_/ }).getAttribute('value');
    await choice.selectOption(batch as string);
    // The key's own figures (the account's show until they are read).
    await page
      .locator('.totals', { hasText: /^2 task\(s\), 0\.002 USD in this range by this key$/ })
      .waitFor();
    // Its two charges only (the account's top-up and its first key's charge are not its).
    await page.waitForFunction(
      () => document.querySelectorAll('table.records tbody tr').length === 2,
    );
    await screen('usage-by-key');
    // The CSV export of the range, that key's records only.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV of the range' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^genhub-billings-.*-key-[0-9a-f]{8}\.csv$/);
    const csv = readFileSync((await download.path()) as string, 'utf8')
      .trim()
      .split('\n');
    expect(csv).toHaveLength(3);
    // Every key again: the account's whole usage.
    await choice.selectOption('');
    await page.locator('.totals', { hasText: /^3 task\(s\), 0\.003 USD in this range$/ }).waitFor();
  }, 45_000);

  it('as the operator: raises the key’s limit and sets its expiry on the account’s page; the key may spend again', async () => {
    const accounts = (await (
      await fetch(`${platform.gateway}/admin/v1/accounts`, {
        headers: { authorization: `Bearer ${platform.adminToken}` },
      })
    ).json()) as { data: { id: string }[] };
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    contexts.push(context);
    const op = watchPolicy(await context.newPage());
    await op.goto(`${platform.gateway}/console/#/operator/accounts/${accounts.data[0].id}`);
    await op.getByLabel('Admin token').fill(platform.adminToken);
    await op.getByRole('button', { name: 'Sign in' }).click();
    const batch = row(op, 'batch');
    await batch.locator('td.spent').getByText('0.002 of 0.002 USD today (UTC)').waitFor();
    await batch.getByRole('button', { name: 'Edit batch' }).click();
    // The edit form holds the key's settings as they are.
    expect(await op.getByLabel(/^Allowed models/).inputValue()).toBe('local/*');
    expect(await op.getByLabel(/^Spend limit/).inputValue()).toBe('0.002');
    expect(await op.getByLabel('keys:manage').isChecked()).toBe(false);
    await op.getByLabel(/^Spend limit/).fill('0.003');
    await op.getByRole('button', { name: 'Save limits' }).click();
    await op.getByText('Limits saved for batch.').waitFor();
    await batch.locator('td.spent').getByText('0.002 of 0.003 USD today (UTC)').waitFor();
    await screen('operator-keys', op);
    // An expiry, set in the browser's time, kept as that instant.
    await batch.getByRole('button', { name: 'Edit batch' }).click();
    await op.getByLabel(/^Expires at/).fill('2030-01-02T03:04');
    await op.getByRole('button', { name: 'Save limits' }).click();
    await batch
      .locator('td.limits')
      .getByText(/^Expires: .*2030/)
      .waitFor();
    const keys = (await (
      await fetch(`${platform.gateway}/admin/v1/accounts/${accounts.data[0].id}/api-keys`, {
        headers: { authorization: `Bearer ${platform.adminToken}` },
      })
    ).json()) as { data: { name: string; expires_at: string; spend_limit: unknown }[] };
    const expected = await op.evaluate(() => new Date('2030-01-02T03:04').toISOString());
    expect(keys.data.find((k) => k.name === 'batch')).toMatchObject({
      expires_at: expected,
      spend_limit: { amount: 0.003, period: 'day' },
    });

    expect((await submit(limitedKey)).status).toBe(200);
    expect((await submit(limitedKey)).status).toBe(402);
  }, 45_000);

  it('shows the API’s refusals: no keys:manage, and a key wider than the one asking', async () => {
    // The limited key lacks keys:manage: its keys page says so.
    const holder = await signedIn(limitedKey);
    await holder.getByRole('link', { name: 'API keys' }).click();
    await holder
      .getByRole('alert')
      .getByText(/keys:manage/)
      .waitFor();
    await screen('keys-scope-refused', holder);
    // Its usage page offers no choice of key (it may not list them), and says nothing of it.
    await holder.getByRole('link', { name: 'Usage' }).click();
    await holder.locator('.totals').waitFor();
    expect(await holder.getByLabel('API key').count()).toBe(0);
    expect(await holder.getByRole('alert').count()).toBe(0);

    // A manager limited to 1 a day may not create a key without a limit.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Key name (optional)').fill('manager');
    await page.getByLabel(/^Spend limit \(USD\)/).fill('1');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const manager = await page.locator('.secret code').innerText();
    const managing = await signedIn(manager);
    await managing.getByRole('link', { name: 'API keys' }).click();
    await managing.locator('table.keys tbody tr').first().waitFor();
    await managing.getByLabel('Key name (optional)').fill('too wide');
    await managing.getByRole('button', { name: 'Create a key' }).click();
    await managing
      .getByRole('alert')
      .getByText(/beyond its own limits|wider/i)
      .waitFor();
    expect(await managing.locator('.secret').count()).toBe(0);
    // Within its limits it may: a key that can only read tasks, which signs in but may not read the usage.
    await managing.getByLabel('Key name (optional)').fill('poller');
    await managing.getByLabel(/^Spend limit \(USD\)/).fill('0.5');
    for (const scope of ['tasks:write', 'billing:read', 'files:write', 'keys:manage'])
      await managing.getByLabel(scope).uncheck();
    await managing.getByRole('button', { name: 'Create a key' }).click();
    const poller = await managing.locator('.secret code').innerText();
    expect(await row(managing, 'poller').locator('td.limits').innerText()).toContain(
      'Scopes: tasks:read',
    );
    const polling = await signedIn(poller);
    await polling.getByRole('link', { name: 'Usage' }).click();
    await polling
      .getByRole('alert')
      .getByText(/billing:read/)
      .waitFor();
    // Revoked after a confirmation: the poller's next request signs it out.
    await managing.getByRole('button', { name: 'Revoke poller' }).click();
    await managing.getByRole('button', { name: 'Yes, revoke' }).click();
    await row(managing, 'poller')
      .locator('td.status')
      .getByText(/^revoked/)
      .waitFor();
    await polling.getByRole('link', { name: 'History' }).click();
    await polling.getByRole('alert').getByText('Invalid or revoked API key').waitFor();
    await polling.getByLabel('API key').waitFor();
    await screen('keys-managed', managing);
    await managing.setViewportSize({ width: 390, height: 844 });
    const overflow = await managing.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((e) => !e.closest('.visually-hidden'))
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
    );
    expect(overflow).toEqual([]);
  }, 60_000);

  it('ran every page above under its Content-Security-Policy without a single violation', () => {
    expect(violations).toEqual([]);
  });
});
