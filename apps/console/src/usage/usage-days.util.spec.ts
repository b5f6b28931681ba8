import { costSeries, daysBetween, MAX_CHART_DAYS } from './usage-days.util';

describe('usage chart data', () => {
  it('lists the days of a range, inclusive, across a month end, at most a month of them', () => {
    expect(daysBetween('2026-01-30', '2026-02-02')).toEqual([
      '2026-01-30',
      '2026-01-31',
      '2026-02-01',
      '2026-02-02',
    ]);
    expect(daysBetween('2026-02-02', '2026-02-01')).toEqual([]);
    const long = daysBetween('2026-01-01', '2026-12-31');
    expect(long).toHaveLength(MAX_CHART_DAYS);
    expect(long.at(-1)).toBe('2026-12-31');
  });

  it('gives each category a cost per day, zero where it had none', () => {
    expect(
      costSeries(
        ['d1', 'd2', 'd3'],
        [
          { 'text-to-image': { cost: 0.002 } },
          {},
          { test: { cost: 0.001 }, 'text-to-image': { cost: 0.004 } },
        ],
      ),
    ).toEqual([
      { category: 'test', costs: [0, 0, 0.001] },
      { category: 'text-to-image', costs: [0.002, 0, 0.004] },
    ]);
  });
});
