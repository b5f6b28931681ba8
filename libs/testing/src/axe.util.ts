import { readFileSync } from 'node:fs';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

let axeSource: string | undefined;

/**
 * The page's serious and critical accessibility violations by axe-core (run
 * inside the page as it stands), one line each: rule, help text, and where.
 * An empty list passes; minor and moderate findings are not counted.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  // The callbacks run in the page: `globalThis` is its window (this lib has no DOM types).
  if (!(await page.evaluate(() => 'axe' in globalThis))) {
    // Evaluated through the DevTools protocol, not as a <script>: a page's
    // Content-Security-Policy (the console's forbids inline scripts) does not apply.
    axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(axeSource);
  }
  const results = await page.evaluate(
    () =>
      (
        globalThis as unknown as { axe: { run(): Promise<AxeResults> } }
      ).axe.run() as Promise<AxeResults>,
  );
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes
          .map((node) => node.target.join(' '))
          .join('; ')})`,
    );
}
