import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { knownSeriesNames } from '@genhub/observability';
import { APPS } from './config-vars';
import { deployRoot, K8sObject, overlayDirs, renderKustomization } from './kustomize';

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

interface Relabel {
  source_labels?: string[];
  separator?: string;
  regex?: string;
  action?: string;
}
interface ScrapeJob {
  job_name: string;
  authorization?: { type?: string; credentials_file?: string };
  relabel_configs?: Relabel[];
}
interface PodTemplate {
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { containers: { ports?: { name?: string }[] }[] };
}

const scrape = parse(
  readFileSync(join(deployRoot, 'observability/prometheus-scrape.yml'), 'utf8'),
) as { scrape_configs: ScrapeJob[] };

const sanitize = (name: string) => name.replace(/[^a-zA-Z0-9_]/g, '_');

/** The labels Prometheus's pod discovery gives each container port of a pod. */
function podTargets(pod: PodTemplate): Record<string, string>[] {
  const meta: Record<string, string> = {};
  for (const [k, v] of Object.entries(pod.metadata.labels ?? {}))
    meta[`__meta_kubernetes_pod_label_${sanitize(k)}`] = v;
  for (const [k, v] of Object.entries(pod.metadata.annotations ?? {}))
    meta[`__meta_kubernetes_pod_annotation_${sanitize(k)}`] = v;
  return pod.spec.containers.flatMap((c) =>
    (c.ports ?? []).map((port) => ({
      ...meta,
      __meta_kubernetes_pod_container_port_name: port.name ?? '',
    })),
  );
}

/** Whether a job's keep and drop rules keep a target (Prometheus anchors the regex). */
function keeps(job: ScrapeJob, labels: Record<string, string>): boolean {
  for (const rule of job.relabel_configs ?? []) {
    if (rule.action !== 'keep' && rule.action !== 'drop') continue;
    const value = (rule.source_labels ?? [])
      .map((l) => labels[l] ?? '')
      .join(rule.separator ?? ';');
    const matches = new RegExp(`^(?:${rule.regex ?? '(.*)'})$`).test(value);
    if (matches !== (rule.action === 'keep')) return false;
  }
  return true;
}

/**
 * Every app is scraped by exactly one job; the gateway's (its /metrics shares
 * the public port) with its bearer token, so no job scrapes it without one.
 */
function scrapeProblems(objects: K8sObject[], jobs: ScrapeJob[]): string[] {
  const problems: string[] = [];
  for (const app of APPS) {
    const deployment = objects.find(
      (o) => o.kind === 'Deployment' && o.metadata.name === `genhub-${app}`,
    ) as unknown as { spec: { template: PodTemplate } };
    const scrapers = jobs.filter((job) =>
      podTargets(deployment.spec.template).some((target) => keeps(job, target)),
    );
    if (scrapers.length !== 1)
      problems.push(`${app}: scraped by ${scrapers.map((j) => j.job_name).join(', ') || 'no job'}`);
    if (app === 'gateway')
      for (const job of scrapers)
        if (job.authorization?.type !== 'Bearer' || !job.authorization.credentials_file)
          problems.push(`gateway: ${job.job_name} scrapes it without its METRICS_TOKEN`);
  }
  return problems;
}

describe('Prometheus scrape jobs (deploy/observability/prometheus-scrape.yml)', () => {
  const rendered = overlayDirs(deployRoot).map((dir) => renderKustomization(dir));

  it('scrape every app of every overlay once, the gateway with its bearer token', () => {
    for (const objects of rendered)
      expect(scrapeProblems(objects, scrape.scrape_configs)).toEqual([]);
    const gateway = scrape.scrape_configs.find((j) => j.job_name === 'genhub-gateway');
    expect(gateway?.authorization).toEqual({
      type: 'Bearer',
      credentials_file: '/etc/prometheus/secrets/genhub-metrics/METRICS_TOKEN',
    });
  });

  it('keep the labels the alerts select on', () => {
    for (const job of scrape.scrape_configs)
      expect(job.relabel_configs).toContainEqual({
        action: 'labelmap',
        regex: '__meta_kubernetes_pod_label_(.+)',
      });
    expect(
      alerts.groups.flatMap((g) => g.rules).find((r) => r.alert === 'GenhubAppDown')?.expr,
    ).toBe('up{app_kubernetes_io_name="genhub"} == 0');
  });

  it('the check catches a gateway scraped without its token', () => {
    const objects = structuredClone(rendered[0]);
    const gateway = objects.find(
      (o) => o.metadata.name === 'genhub-gateway' && o.kind === 'Deployment',
    ) as unknown as {
      spec: { template: PodTemplate };
    };
    gateway.spec.template.metadata.annotations = { 'prometheus.io/scrape': 'true' };
    expect(scrapeProblems(objects, scrape.scrape_configs)).toEqual([
      'gateway: scraped by genhub-gateway, genhub-workers',
      'gateway: genhub-workers scrapes it without its METRICS_TOKEN',
    ]);
    const tokenless = scrape.scrape_configs.map(({ authorization: _, ...job }) => job);
    expect(scrapeProblems(rendered[0], tokenless)).toEqual([
      'gateway: genhub-gateway scrapes it without its METRICS_TOKEN',
    ]);
  });
});
