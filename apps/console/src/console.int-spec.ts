import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  launchChromium,
  type LocalPlatform,
  seriousAccessibilityViolations,
  startLocalPlatform,
} from '@genhub/testing';

const workspaceRoot = join(__dirname, '../../..');

/**
 * The console as a newcomer meets it: built, served by the built gateway at
 * /console beside a task-worker, driven in Debian's Chromium. Each screen is
 * saved to dist/console-screenshots (a CI artifact) and checked by axe-core:
 * a serious or critical accessibility violation fails the test.
 */
describe('the web console in a browser (built gateway + task-worker)', () => {
  let platform: LocalPlatform;
  let browser: Browser;
  let page: Page;
  let apiKey: string;
  const shots = join(workspaceRoot, 'dist', 'console-screenshots');

  /** Every Content-Security-Policy violation any console page reports (decision 0128). */
  const violations: string[] = [];
  function watchPolicy(on: Page): Page {
    on.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    return on;
  }

  beforeAll(async () => {
    const out = join(workspaceRoot, 'dist', `test-console-${process.pid}`);
    execFileSync('node', ['tools/console/build-console.mjs', '--out', out], {
      cwd: workspaceRoot,
      stdio: 'ignore',
    });
    platform = await startLocalPlatform('console', { CONSOLE_DIR: out });
    apiKey = await platform.accountWithKey(10);
    browser = await launchChromium();
    page = watchPolicy(await browser.newPage({ viewport: { width: 1200, height: 900 } }));
  }, 180_000);

  /** Saves the screen and expects no serious accessibility violation on it. */
  async function screen(name: string, on: Page = page) {
    await on.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    expect(await seriousAccessibilityViolations(on)).toEqual([]);
  }

  /** Nothing wider than the screen: the page and the offenders named when something is. */
  async function expectFitsThePhone(on: Page) {
    const overflow = await on.evaluate(() => ({
      page: window.location.hash,
      fits: document.documentElement.scrollWidth <= window.innerWidth,
      wider: [...document.querySelectorAll('body *')]
        // (content for screen readers only is clipped to nothing, whatever its box)
        .filter((e) => !e.closest('.visually-hidden'))
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
    }));
    expect(overflow).toEqual({ page: overflow.page, fits: true, wider: [] });
  }

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    execFileSync('rm', ['-rf', join(workspaceRoot, 'dist', `test-console-${process.pid}`)]);
  });

  it('finds a serious accessibility violation where there is one (the check itself can fail)', async () => {
    const bare = await browser.newPage();
    await bare.setContent(
      '<html lang="en"><head><title>probe</title></head><body><img src="data:,"><button></button></body></html>',
    );
    expect(await seriousAccessibilityViolations(bare)).toEqual([
      expect.stringMatching(/^button-name: /),
      expect.stringMatching(/^image-alt: /),
    ]);
    await bare.close();
    // (Not Jest's default 5 s: the first axe-core run in a new page took 2.2 s beside the
    // gateway's suite, which leaves CI's busy two cores little margin.)
  }, 30_000);

  it('refuses a wrong key with the catalogue’s message, then signs in', async () => {
    const answer = await page.goto(`${platform.gateway}/console`);
    // A strict policy: scripts and styles of its own only, and it may not be framed.
    expect(answer?.headers()['content-security-policy']).toMatch(
      /^default-src 'none';.*frame-ancestors 'none';.*script-src 'self'; style-src 'self';/,
    );
    await page.getByLabel('API key').fill('gh_not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Invalid or revoked API key').waitFor();
    await screen('sign-in');
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Models' }).waitFor();
    // The key lives for this browser session only unless the user asked.
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
  }, 30_000);

  it('runs the local text-to-image model from its generated form and shows the image', async () => {
    await page.getByRole('button', { name: /Local image/ }).click();
    // The price before submitting, from the listing.
    await page.getByText('Price: 0.002 per task').waitFor();
    await page.getByLabel(/^Prompt/).fill('a lighthouse at dawn');
    await page.getByLabel('Aspect ratio').selectOption('16:9');
    await page.getByLabel('Resolution').selectOption('512');
    await page.getByRole('button', { name: 'Run' }).click();
    const image = page.getByRole('img', { name: 'Output 1' });
    await image.waitFor({ timeout: 30_000 });
    await page.getByText('completed', { exact: true }).waitFor();
    expect(
      await image.evaluate(async (img: HTMLImageElement) => {
        // On a busy machine the element comes before its bytes: wait (a broken image rejects).
        await img.decode();
        return [img.complete, img.naturalWidth, img.naturalHeight];
      }),
    ).toEqual([true, 512, 288]);
    await screen('playground-image');
  }, 45_000);

  it('shows a failing task’s code and error, and a form error before any request', async () => {
    await page.getByRole('button', { name: /Simulator/ }).click();
    await page.getByText('Price: 0.001 per task').waitFor();
    await page.getByLabel(/^Prompt/).fill('a lighthouse at dawn');
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
    await screen('playground-failed');
  }, 30_000);

  it('uploads a file first and uses it as an input (local image-to-video animates it)', async () => {
    await page.getByRole('button', { name: /Local video/ }).click();
    await page.getByLabel('Run type').selectOption('image-to-video');
    await page.getByLabel(/^Prompt/).fill('the sign-in screen, moving');
    await page.getByLabel('Output format').selectOption('gif');
    await page.getByLabel('Duration').fill('1');
    // Any PNG will do: the sign-in screenshot.
    await page
      .getByLabel('Or upload a file for Image url')
      .setInputFiles(join(shots, 'sign-in.png'));
    await page.waitForFunction(
      (gateway) =>
        (document.getElementById('field-image_url') as HTMLInputElement).value.startsWith(gateway),
      platform.gateway,
    );
    await page.getByRole('button', { name: 'Run' }).click();
    const video = page.getByRole('img', { name: 'Output 1' });
    await video.waitFor({ timeout: 60_000 });
    await page.getByText('completed', { exact: true }).waitFor();
    expect(await video.getAttribute('src')).toMatch(/\.gif$/);
    await screen('playground-upload-video');
  }, 75_000);

  it('lists the tasks in the history, opens one with its input and error, and deletes it', async () => {
    await page.getByRole('link', { name: 'History' }).click();
    const rows = page.locator('table.tasks tbody tr');
    await rows.first().waitFor();
    const statuses = () => rows.evaluateAll((trs) => trs.map((tr) => tr.children[2].textContent));
    // Newest first: the video, the failed task, the image.
    expect(await statuses()).toEqual(['completed', 'failed (1402)', 'completed']);
    await page.getByLabel('Status').selectOption('completed');
    await page.waitForFunction(
      () => document.querySelectorAll('table.tasks tbody tr').length === 2,
    );
    await screen('history');
    await page.getByLabel('Status').selectOption('');
    await page.waitForFunction(
      () => document.querySelectorAll('table.tasks tbody tr').length === 3,
    );

    await rows.nth(1).getByRole('button').click();
    await page.getByText(/"fail_code": 1402/).waitFor();
    await page.getByText('No webhook for this task.').waitFor();
    await screen('task-detail');
    await page.getByRole('button', { name: 'Delete task' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('heading', { name: 'History' }).waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('table.tasks tbody tr').length === 2,
    );
    expect(await statuses()).toEqual(['completed', 'completed']);
  }, 30_000);

  it('shows the balance and tier, the cost in the chart and totals, the records, and exports CSV', async () => {
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByText('Balance:').waitFor();
    // 10 topped up, 0.002 (image) and 0.005 (video) captured; the failed task was released.
    expect(await page.locator('.balance').innerText()).toMatch(/^Balance: 9\.993 USD · tier \w+$/);
    await page.locator('.totals').waitFor();
    expect(await page.locator('.totals').innerText()).toBe('2 task(s), 0.007 USD in this range');
    await page.getByRole('img', { name: 'Daily cost by category, in USD' }).waitFor();
    // The figures' table: one row per day, one column per category; they add up to the total.
    const daily = await page.locator('.chart tbody td').allInnerTexts();
    expect(daily.reduce((sum, cost) => sum + Number(cost), 0)).toBeCloseTo(0.007, 9);
    expect(await page.locator('.chart thead th').allInnerTexts()).toEqual(
      expect.arrayContaining(['text-to-image', 'image-to-video']),
    );
    await page.locator('table.records tbody tr').first().waitFor();
    await page.getByLabel('Type').selectOption('usage');
    await page.waitForFunction(
      () => document.querySelectorAll('table.records tbody tr').length === 2,
    );
    expect(
      await page.locator('table.records tbody tr').first().locator('td').allInnerTexts(),
    ).toEqual([expect.any(String), 'usage', '-0.005', 'local/video/image-to-video', '9.993']);
    await screen('usage');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV of the range' }).click(),
    ]);
    const csv = readFileSync((await download.path()) as string, 'utf8')
      .trim()
      .split('\n');
    expect(csv).toHaveLength(3);
    expect(csv.slice(1).join('\n')).toContain('local/image/text-to-image');
  }, 30_000);

  it('chats with the local chat model, the answer streamed in', async () => {
    await page.getByRole('link', { name: 'Chat' }).click();
    await page.getByLabel('Model').selectOption('local/chat');
    await page.getByLabel('Message').fill('Hello there, console');
    await page.getByLabel('Message').press('Enter');
    const answer = page.locator('.messages li.assistant').last();
    await answer.waitFor();
    await page.getByText(/^Last answer: \d+ prompt \+ \d+ completion tokens$/).waitFor();
    expect((await answer.locator('p').innerText()).length).toBeGreaterThan(0);
    expect(await page.locator('.messages li.user p').innerText()).toBe('Hello there, console');
    await screen('chat');
  }, 30_000);

  it('says when the server cannot be reached, and retries once it can', async () => {
    await page.context().setOffline(true);
    await page.getByRole('link', { name: 'History' }).click();
    await page
      .getByRole('alert')
      .getByText('The server cannot be reached: check the connection and retry.')
      .waitFor();
    await screen('network-lost');
    await page.context().setOffline(false);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.locator('table.tasks tbody tr').first().waitFor();
  }, 30_000);

  it('as the operator: creates an account, issues a key, tops up and caps it; the key’s holder runs a task, is refused once suspended, and signed out once the key is revoked', async () => {
    const operatorContext = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const userContext = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    try {
      const op = watchPolicy(await operatorContext.newPage());
      await op.goto(`${platform.gateway}/console/#operator`);
      await op.getByLabel('Admin token').fill('not-the-token');
      await op.getByRole('button', { name: 'Sign in' }).click();
      await op.getByRole('alert').getByText('Invalid admin token').waitFor();
      await op.getByLabel('Admin token').fill(platform.adminToken);
      await op.getByRole('button', { name: 'Sign in' }).click();
      await op.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
      // The first page lists the test's own account (made through the admin API).
      await op.locator('table.accounts tbody tr').first().waitFor();
      expect(await op.evaluate(() => Object.keys(localStorage))).toEqual([]);

      await op.getByLabel('Tier').selectOption('Gold');
      await op.getByRole('button', { name: 'Create account' }).click();
      expect(await op.locator('.secret code').innerText()).toMatch(/^whsec_/);
      await screen('operator-accounts', op);
      await op.getByRole('button', { name: 'Open it' }).click();
      await op.getByRole('heading', { name: /^Account / }).waitFor();
      expect(await op.locator('.account-balance').innerText()).toBe(
        '0 USD (0 reserved by running tasks)',
      );

      await op.getByLabel('Key name (optional)').fill('e2e');
      await op.getByRole('button', { name: 'Issue a key' }).click();
      const key = await op.locator('.secret code').innerText();
      expect(key).toMatch(/^gh_/);
      await op.getByRole('button', { name: 'Revoke e2e' }).waitFor();
      await op.getByLabel(/^Top-up amount/).fill('5');
      await op.getByRole('button', { name: 'Top up', exact: true }).click();
      await op.getByText('Topped up 5; balance after: 5.').waitFor();
      await op
        .locator('.account-balance')
        .getByText('5 USD (0 reserved by running tasks)', { exact: true })
        .waitFor();
      // The cap on tasks running at once (issue 36): none by default, set, kept after a reload.
      expect(await op.locator('.account-cap').innerText()).toBe('no cap');
      await op.getByLabel(/^Cap on tasks running at once/).fill('3');
      await op.getByRole('button', { name: 'Set cap' }).click();
      await op.getByText(/^Cap set: at most 3 tasks at once/).waitFor();
      await op.locator('.account-cap').getByText('3 tasks at once', { exact: true }).waitFor();
      await op.reload();
      await op.getByRole('heading', { name: /^Account / }).waitFor();
      await op.locator('.account-cap').getByText('3 tasks at once', { exact: true }).waitFor();
      await screen('operator-account', op);
      await op.setViewportSize({ width: 390, height: 844 });
      await expectFitsThePhone(op);
      await op.setViewportSize({ width: 1200, height: 900 });

      // The queue by account (issue 36): a long task keeps the signed-in user's account open.
      const auth = { authorization: `Bearer ${apiKey}` };
      const submitted = await fetch(`${platform.gateway}/api/v3/local/simulator/test`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'held open', duration_ms: 60_000 }),
      });
      const long = ((await submitted.json()) as { data: { id: string } }).data.id;
      await op.getByRole('link', { name: 'Queue', exact: true }).click();
      await op.getByRole('heading', { name: 'Queue by account' }).waitFor();
      await op.locator('table.queue-accounts tbody tr').first().waitFor();
      expect(await op.locator('.queue-totals').innerText()).toMatch(
        /^\d+ waiting and \d+ running, over \d+ accounts?\.$/,
      );
      expect(await op.locator('table.queue-accounts tbody tr').first().innerText()).toMatch(
        /^[0-9a-f-]{36}\s+[01]\s+[01]\s+/,
      );
      await screen('operator-queue', op);
      const deleted = await fetch(`${platform.gateway}/api/v3/predictions/${long}`, {
        method: 'DELETE',
        headers: auth,
      });
      expect(deleted.status).toBe(200);
      await op.setViewportSize({ width: 390, height: 844 });
      await expectFitsThePhone(op);
      await op.setViewportSize({ width: 1200, height: 900 });
      await op.goBack();
      await op.getByRole('heading', { name: /^Account / }).waitFor();

      // The new key's holder signs in and runs a task.
      const user = watchPolicy(await userContext.newPage());
      await user.goto(`${platform.gateway}/console/`);
      await user.getByLabel('API key').fill(key);
      await user.getByRole('button', { name: 'Sign in' }).click();
      await user.getByRole('button', { name: /Simulator/ }).click();
      await user.getByLabel(/^Prompt/).fill('a gold account');
      await user.getByRole('button', { name: 'Run' }).click();
      await user.getByText('completed', { exact: true }).waitFor({ timeout: 15_000 });

      // The cap removed: back to none.
      await op.getByRole('button', { name: 'Remove cap' }).click();
      await op.getByText(/^Cap removed/).waitFor();
      await op.locator('.account-cap').getByText('no cap', { exact: true }).waitFor();

      // Suspended: the user's console shows the refusal (and stays signed in).
      await op.getByRole('button', { name: 'Suspend' }).click();
      await op.getByText(/^Suspended: its keys are refused/).waitFor();
      await user.getByRole('button', { name: 'Run' }).click();
      await user.getByRole('alert').getByText('Account suspended').waitFor();
      await screen('user-suspended', user);

      // Unsuspended, then the key revoked: the next request sends the user back to sign-in.
      await op.getByRole('button', { name: 'Unsuspend' }).click();
      await op.getByText('Active again.').waitFor();
      await op.getByRole('button', { name: 'Revoke e2e' }).click();
      await op.getByRole('button', { name: 'Yes, revoke' }).click();
      await op
        .locator('table.keys td.status')
        .getByText(/^revoked/)
        .waitFor();
      await user.getByRole('link', { name: 'History' }).click();
      await user.getByRole('alert').getByText('Invalid or revoked API key').waitFor();
      await user.getByLabel('API key').waitFor();

      // The queue dashboard opens from the console (same origin: its cookie is set for it).
      const [board] = await Promise.all([
        operatorContext.waitForEvent('page'),
        op.getByRole('link', { name: 'Queue dashboard' }).click(),
      ]);
      // The cookie was set for the board's path only, and the board answers with it.
      expect(await operatorContext.cookies(`${platform.gateway}/admin/queues`)).toEqual([
        expect.objectContaining({
          name: 'genhub_admin_token',
          value: encodeURIComponent(platform.adminToken),
          path: '/admin/queues',
        }),
      ]);
      expect((await board.goto(`${platform.gateway}/admin/queues`))?.status()).toBe(200);
      // bull-board's own page: a screenshot, but not ours to hold to axe.
      await board.screenshot({ path: join(shots, 'queue-dashboard.png') });
    } finally {
      await operatorContext.close();
      await userContext.close();
    }
  }, 60_000);

  it('works at phone width: no sideways scrolling, every page reachable', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    // Each page with its content loaded (the tables are the widest part).
    const pages = {
      Playground: '.model-list li',
      History: 'table.tasks tbody tr',
      Usage: 'table.records tbody tr',
      Chat: '.messages li',
      'API keys': 'table.keys tbody tr',
    };
    for (const [name, content] of Object.entries(pages)) {
      await page.getByRole('link', { name }).click();
      await page.locator(content).first().waitFor();
      await expectFitsThePhone(page);
    }
    await page.getByRole('link', { name: 'Playground' }).click();
    await page.getByRole('button', { name: /Local image/ }).click();
    await screen('phone-playground');
    await page.setViewportSize({ width: 1200, height: 900 });
  }, 30_000);

  it('paints the playground quickly (first contentful paint printed, not asserted)', async () => {
    const fresh = watchPolicy(await browser.newPage());
    await fresh.goto(`${platform.gateway}/console/`);
    await fresh.evaluate((key) => sessionStorage.setItem('genhub.apiKey', key), apiKey);
    const started = Date.now();
    // A new load (not a hash change) of the playground, signed in for this tab's session.
    await fresh.goto(`${platform.gateway}/console/?measure#playground`, { waitUntil: 'load' });
    await fresh.getByRole('heading', { name: 'Models' }).waitFor();
    const modelsShownMs = Date.now() - started;
    const fcp = await fresh.evaluate(
      // The paint entry may be recorded a little after the content shows: wait for it.
      () =>
        new Promise<number>((resolve) =>
          new PerformanceObserver((list) => {
            const paint = list.getEntriesByName('first-contentful-paint')[0];
            if (paint) resolve(paint.startTime);
          }).observe({ type: 'paint', buffered: true }),
        ),
    );
    expect(fcp).toBeGreaterThan(0);
    const line = `console playground: first contentful paint ${Math.round(fcp)} ms (budget 1000 ms), models listed after ${modelsShownMs} ms`;
    writeFileSync(join(shots, 'performance.txt'), `${line}\n`);
    process.stdout.write(`${line}\n`);
    await fresh.close();
  }, 30_000);

  it('ran every page above under its Content-Security-Policy without a single violation', () => {
    expect(violations).toEqual([]);
  });
});
