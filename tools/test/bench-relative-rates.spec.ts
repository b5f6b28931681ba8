import { execFileSync } from 'node:child_process';
import path from 'node:path';

// The bench's relative load (issue 38) is arithmetic on the floor's figures: checked
// here without a platform (the module is ES, so a child Node evaluates it).
const MODULE = path.resolve(__dirname, '../bench/lib/relative-rates.mjs');

function evaluate(expression: string): unknown {
  const script = `import * as m from ${JSON.stringify(MODULE)}; console.log(JSON.stringify(${expression}));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
  );
}

describe('bench relative rates', () => {
  it('runs at 35 % and 60 % of the floor saturation, rounded to whole submits per second', () => {
    expect(evaluate('m.relativeRates(977)')).toEqual([
      { share: 0.35, key: 'at35', rate: 342 },
      { share: 0.6, key: 'at60', rate: 586 },
    ]);
  });

  it('never asks for less than one submit per second', () => {
    expect(evaluate('m.rateAt(0.35, 1)')).toBe(1);
  });

  it("counts the floor pipeline's CPU per task at a rate as cores used ÷ submits per second, per run", () => {
    const phase = {
      achieved_rate: { runs: [200, 400] },
      cpu_cores: {
        server: { runs: [0.2, 0.4] },
        worker: { runs: [0.2, 0.4] },
        loadgen: { runs: [0.1, 0.2] },
        postgres: { runs: [0.2, 0.4] },
        redis: { runs: [0.1, 0.2] },
        // Not one of the pipeline's processes: left out.
        other_cores: { runs: [1, 1] },
      },
    };
    const perTask = evaluate(`m.floorCpuPerTaskAtRate(${JSON.stringify(phase)})`) as number[];
    expect(perTask.map((us) => Math.round(us))).toEqual([4000, 4000]);
  });
});
