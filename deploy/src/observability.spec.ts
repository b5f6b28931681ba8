import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { knownSeriesNames } from '@genhub/observability';
import { deployRoot } from './kustomize';

const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/** The series names a PromQL expression reads (functions, labels, keywords and literals left out). */
function seriesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '');
  const names = [...bare.matchAll(/[A-Za-z_:][\w:]*(?!\s*\()/g)]
    .filter((m) => !/\w/.test(bare[m.index + m[0].length] ?? '')) // not cut inside a function name
    .map((m) => m[0])
    .filter((n) => !KEYWORDS.has(n.toLowerCase()));
  return [...new Set(names)];
}

interface Rule {
  alert: string;
  expr: string;
}
const alerts = parse(readFileSync(join(deployRoot, 'observability/alerts.yml'), 'utf8')) as {
  groups: { name: string; rules: Rule[] }[];
};
const dashboard = JSON.parse(
  readFileSync(join(deployRoot, 'observability/grafana-dashboard.json'), 'utf8'),
) as { panels: { type: string; title: string; targets?: { expr: string }[] }[] };
const known = knownSeriesNames();

describe('seriesIn', () => {
  it('finds the series and nothing else', () => {
    expect(
      seriesIn(
        'histogram_quantile(0.95, sum by (route, le) (rate(genhub_x_bucket{a="b c"}[5m]))) > 1 and up == 0',
      ),
    ).toEqual(['genhub_x_bucket', 'up']);
  });
});

describe('alert rules (deploy/observability/alerts.yml)', () => {
  const rules = alerts.groups.flatMap((g) => g.rules);

  it('parse, and each rule has a name, an expression and a severity', () => {
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules as (Rule & { labels?: { severity?: string } })[]) {
      expect(rule.alert).toMatch(/^Genhub\w+$/);
      expect(seriesIn(rule.expr).length).toBeGreaterThan(0);
      expect(['page', 'warn']).toContain(rule.labels?.severity);
    }
  });

  it('cover stuck tasks, queue growth, webhook failures, the ledger audit, app down and 5xx', () => {
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        'GenhubTasksStuck',
        'GenhubQueueGrowing',
        'GenhubWebhookFailureRate',
        'GenhubLedgerAuditFailed',
        'GenhubAppDown',
        'GenhubHigh5xxRate',
      ]),
    );
  });

  it('query only metrics the apps export', () => {
    const unknown = rules.flatMap((r) =>
      seriesIn(r.expr)
        .filter((name) => !known.has(name))
        .map((name) => `${r.alert}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe('Grafana dashboard (deploy/observability/grafana-dashboard.json)', () => {
  const panels = dashboard.panels.filter((p) => p.type !== 'row');

  it('parses and every panel has at least one query', () => {
    expect(panels.length).toBeGreaterThan(10);
    for (const panel of panels) expect(panel.targets?.length).toBeGreaterThan(0);
  });

  it('queries only metrics the apps export, and shows every catalogued figure', () => {
    const used = panels.flatMap((p) => (p.targets ?? []).flatMap((t) => seriesIn(t.expr)));
    expect(used.filter((name) => !known.has(name))).toEqual([]);
    const family = (name: string) => name.replace(/_(bucket|sum|count)$/, '');
    const shown = new Set(used.map(family));
    expect([...known].map(family).filter((f) => !shown.has(f))).toEqual([]);
  });
});
