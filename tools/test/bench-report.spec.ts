import { execFileSync } from 'node:child_process';
import path from 'node:path';

// The bench's table: rows judged against their targets, and figures shown without one.
const MODULE = path.resolve(__dirname, '../bench/lib/report.mjs');

function table(rows: unknown[], saturation?: unknown): string[] {
  const script = `import * as m from ${JSON.stringify(MODULE)}; console.log(m.renderTable(${JSON.stringify(rows)}, ${JSON.stringify(saturation)}));`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n');
}

const agg = (median: number) => ({ median, min: median, max: median });

describe('bench table', () => {
  it('judges a row against its target, and shows a figure without one unjudged', () => {
    const lines = table(
      [
        { metric: 'judged', ours: agg(3), floor: agg(2), target: { kind: 'ratio<=', value: 1.2 } },
        { metric: 'shown', ours: agg(25) },
      ],
      agg(1500),
    );
    expect(lines.slice(2)).toEqual([
      '| judged | 3 [3–3] | 2 [2–2] | 1.5 | ratio ≤ 1.2 | no | 1500 |',
      '| shown | 25 [25–25] | — | — | — | — | 1500 |',
    ]);
  });
});
