// Renders the comparison table, writes it as JSON to results/ and into docs/performance.md.
// Results are kept one per kind (`keptKind`): commit a new one in place of the previous result of
// its kind (docs/performance.md, "Results"; `npx nx test tools` checks it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from '../../start/lib/paths.mjs';
import { r2 } from './stats.mjs';

const fmt = (a) => (a && Number.isFinite(a.median) ? `${a.median} [${a.min}–${a.max}]` : 'n/a');
const num = (a) => (a && Number.isFinite(a.median) ? a.median : NaN);

/**
 * rows: { metric, ours (agg), floor (agg|undefined), target: { kind: 'ratio>=', value } | { kind: 'ratio<=', value } | { kind: 'abs<=', value } | undefined (a figure shown, not judged) }
 * saturation: the floor pipeline's saturation throughput of the same invocation (agg|undefined),
 * beside every row: it tells a slow day from a fast one (issue 38).
 */
export function renderTable(rows, saturation) {
  const lines = [
    '| measure | genhub median [min–max] | floor | ratio | target | met | floor saturation (submits/s) |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const ratio = row.floor ? r2(num(row.ours) / num(row.floor)) : undefined;
    if (!row.target) {
      row.ratio = ratio;
      lines.push(
        `| ${row.metric} | ${fmt(row.ours)} | ${row.floor ? fmt(row.floor) : '—'} | ${ratio ?? '—'} | — | — | ${saturation ? saturation.median : '—'} |`,
      );
      continue;
    }
    const value = row.target.kind.startsWith('ratio') ? ratio : num(row.ours);
    const met = row.target.kind.endsWith('>=')
      ? value >= row.target.value
      : value <= row.target.value;
    row.ratio = ratio;
    row.met = Number.isFinite(value) ? met : false;
    const target = `${row.target.kind.startsWith('ratio') ? 'ratio' : 'value'} ${row.target.kind.endsWith('>=') ? '≥' : '≤'} ${row.target.value}`;
    lines.push(
      `| ${row.metric} | ${fmt(row.ours)} | ${row.floor ? fmt(row.floor) : '—'} | ${ratio ?? '—'} | ${target} | ${Number.isFinite(value) ? (met ? 'yes' : 'no') : 'n/a'} | ${saturation ? saturation.median : '—'} |`,
    );
  }
  return lines.join('\n');
}

/** The machine a run measured: results compare, and are kept, per `kind`. */
export function machine() {
  const cpus = os.cpus();
  const cpu = cpus[0]?.model.trim() || 'unknown CPU';
  const memoryGb = Math.round(os.totalmem() / 2 ** 30);
  return {
    kind: `${cpus.length} × ${cpu}, ${memoryGb} GB, ${os.platform()} ${os.arch()}`,
    cpus: cpus.length,
    cpu,
    memory_gb: memoryGb,
    platform: os.platform(),
    arch: os.arch(),
    node: process.version,
  };
}

/**
 * Below this saturation of the floor pipeline (submits/s) a day is a slow one. This machine's
 * days ran from 540 to 2,000; issue 38 asks for the goals on both kinds of day.
 */
export const SLOW_DAY_BELOW = 1000;

/**
 * At most this many results are committed, the latest: a new one replaces the previous of its
 * kind (keptKind) or, when its kind is new, the oldest. Git history keeps the rest.
 */
export const KEPT_RESULTS = 4;

/**
 * What a committed result is kept per: its machine kind, the kind of day its floor's saturation
 * says (when it measured one) and its `--only` scenario. One result of each is committed.
 */
export function keptKind(result) {
  const parts = [result.machine?.kind ?? '(machine not recorded)'];
  const saturation = result.floor_saturation?.median;
  if (Number.isFinite(saturation))
    parts.push(saturation < SLOW_DAY_BELOW ? 'a slow day' : 'a fast day');
  if (result.only) parts.push(`--only ${result.only}`);
  return parts.join(', ');
}

export function writeResults(report) {
  const dir = path.join(root, 'tools', 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `bench-${report.at.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({ at: report.at, machine: machine(), ...report }, null, 2) + '\n',
  );
  return file;
}

/** The performance guide whose table the bench rewrites between its markers. */
export const PERFORMANCE_DOC = 'docs/performance.md';

/** Replaces the performance guide's table between its markers. */
export function updateReadme(markdown) {
  const file = path.join(root, PERFORMANCE_DOC);
  const text = fs.readFileSync(file, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  if (!text.includes(start)) return false;
  const before = text.slice(0, text.indexOf(start) + start.length);
  const after = text.slice(text.indexOf(end));
  fs.writeFileSync(file, `${before}\n${markdown}\n${after}`);
  return true;
}

/**
 * For a run of one scenario (`--only`): in the performance guide's table, replaces
 * the rows whose measure starts with `prefix` by those of `table` (appends them when
 * there are none), and the paragraph starting with `notePrefix` by `note` (placed
 * after the table when there is none); the other rows and lines stay as they are.
 */
export function updateReadmeRows(prefix, table, note, notePrefix) {
  const file = path.join(root, PERFORMANCE_DOC);
  const text = fs.readFileSync(file, 'utf8');
  const start = text.indexOf('<!-- bench:start -->');
  const end = text.indexOf('<!-- bench:end -->');
  if (start < 0 || end < start) return false;
  const ours = (line) => line.replace(/^\|\s*/, '').startsWith(prefix);
  const rows = table.split('\n').filter((line) => ours(line));
  const lines = text
    .slice(start, end)
    .split('\n')
    .filter((line) => !ours(line) && !line.startsWith(notePrefix));
  const lastRow = lines.findLastIndex((line) => line.startsWith('|'));
  if (lastRow < 0) return false;
  lines.splice(lastRow + 1, 0, ...rows, '', note);
  // One blank line between paragraphs, whatever was removed.
  const block = lines.join('\n').replace(/\n{3,}/g, '\n\n');
  fs.writeFileSync(file, text.slice(0, start) + block + text.slice(end));
  return true;
}
