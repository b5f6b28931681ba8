import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What the repository's documents point at stays there: the decision index
 * (docs/decisions/README.md) lists every note, every decision number cited
 * anywhere is in it (outside the notes, a live one: a folded note's number is
 * retired), every relative Markdown link and its #heading resolve, and the
 * bench keeps one committed result per kind (machine, kind of day, `--only`
 * scenario: `keptKind`) and only the latest few (`KEPT_RESULTS`), each one a document names present. Reads files only: no build, no database.
 */
const root = path.resolve(__dirname, '../..');
const DECISIONS = 'docs/decisions';
const INDEX = `${DECISIONS}/README.md`;
const RESULTS = 'tools/bench/results';

const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\n')
    .filter(Boolean);

/** Tracked files and new ones not ignored, as they are on disk. */
const FILES = git('ls-files', '--cached', '--others', '--exclude-standard').filter((file) =>
  existsSync(path.join(root, file)),
);
/** The text files a citation can hide in (code comments, docs, manifests, scripts). */
const TEXT_FILES = FILES.filter(
  (file) =>
    /\.(md|ts|tsx|mts|js|cjs|mjs|ya?ml|sh|css|html)$|(^|\/)Dockerfile$|^\.ci\/run$/.test(file) &&
    !file.startsWith(`${RESULTS}/`),
);

export interface IndexRow {
  number: string;
  /** The note's file for a live decision; undefined for a retired (folded) number. */
  file?: string;
  /** For a retired number, the note it was folded into. */
  foldedInto?: string;
}

/** The index's rows: `| [NNNN](file) | title |` or `| NNNN | Folded into [MMMM](file) … |`. */
export function indexRows(markdown: string): IndexRow[] {
  const rows: IndexRow[] = [];
  for (const line of markdown.split('\n')) {
    const live = /^\|\s*\[(\d{4})\]\(([^)]+)\)\s*\|/.exec(line);
    if (live) {
      rows.push({ number: live[1], file: live[2] });
      continue;
    }
    const retired = /^\|\s*(\d{4})\s*\|\s*Folded into \[(\d{4})\]/i.exec(line);
    if (retired) rows.push({ number: retired[1], foldedInto: retired[2] });
    else if (/^\|\s*\[?\d{4}/.test(line)) throw new Error(`unreadable index row: ${line}`);
  }
  return rows;
}

const NUMBER = '0\\d{3}';
const SLUG = '(?:-[a-z0-9-]+\\.md)?';
const SEPARATOR = '(?:[\\s*#/,;&–-]|\\band\\b|\\bor\\b)+';
/**
 * "decision 0090", "decisions 0030–0032", "Decision notes (0092, 0118)",
 * "docs/decisions/0090, 0091" and lists that run across comment lines.
 */
const CITATION = new RegExp(
  `(?:\\bdecisions?(?:\\s+notes?)?[\\s(]*|decisions/)(${NUMBER}${SLUG}(?:${SEPARATOR}${NUMBER}${SLUG})*)`,
  'gi',
);
/** A bare "(0101)" or "(0101, …" in code and docs outside the notes. */
const BARE = /\((0\d{3})(?=[),;: ])/g;

export interface Citation {
  file: string;
  line: number;
  number: string;
}

/** The decision numbers a file cites (inside the notes, every four-digit 0NNN is one). */
export function citationsIn(file: string, text: string): Citation[] {
  const found: Citation[] = [];
  const at = (index: number) => text.slice(0, index).split('\n').length;
  if (file.startsWith(`${DECISIONS}/`)) {
    for (const match of text.matchAll(/(?<![\w.,\\-])0\d{3}(?!\w|[.,]\d)/g)) {
      found.push({ file, line: at(match.index ?? 0), number: match[0] });
    }
    return found;
  }
  for (const match of text.matchAll(CITATION)) {
    for (const number of match[1].matchAll(/(?<![\d-])0\d{3}(?!\d)/g)) {
      found.push({ file, line: at((match.index ?? 0) + (number.index ?? 0)), number: number[0] });
    }
  }
  for (const match of text.matchAll(BARE)) {
    found.push({ file, line: at(match.index ?? 0), number: match[1] });
  }
  return found;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutCode(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = match[1]
      .replace(/<[^>]*>/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base);
    seen.set(base, (count ?? -1) + 1);
    anchors.add(count === undefined ? base : `${base}-${count + 1}`);
  }
  return anchors;
}

/** Fenced code blocks hold examples, not links. */
const withoutCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

const rows = indexRows(read(INDEX));
const live = new Map(rows.flatMap((row) => (row.file ? [[row.number, row.file] as const] : [])));
const retired = new Map(
  rows.flatMap((row) => (row.foldedInto ? [[row.number, row.foldedInto] as const] : [])),
);
const describeCitation = (c: Citation) => `${c.file}:${c.line} cites ${c.number}`;

describe('the decision index', () => {
  const notes = readdirSync(path.join(root, DECISIONS)).filter((name) =>
    /^\d{4}-.+\.md$/.test(name),
  );

  it('lists every note once, by its file, and every listed note exists', () => {
    expect(notes.filter((name) => live.get(name.slice(0, 4)) !== name)).toEqual([]);
    expect([...live.values()].filter((file) => !notes.includes(file))).toEqual([]);
  });

  it('numbers each row once, in ascending order (new rows at the end)', () => {
    const numbers = rows.map((row) => row.number);
    expect(numbers).toEqual([...new Set(numbers)].sort());
  });

  it('names a live note for every retired number, whose file is gone', () => {
    expect([...retired].filter(([, into]) => !live.has(into))).toEqual([]);
    expect(notes.filter((name) => retired.has(name.slice(0, 4)))).toEqual([]);
  });

  it('heads every note with its own number', () => {
    const misheaded = notes.filter(
      (name) => !read(`${DECISIONS}/${name}`).startsWith(`# ${name.slice(0, 4)} `),
    );
    expect(misheaded).toEqual([]);
  });
});

describe('decision citations', () => {
  const citations = TEXT_FILES.flatMap((file) => citationsIn(file, read(file)));

  it('finds the citations it checks', () => {
    expect(citations.length).toBeGreaterThan(100);
  });

  it('cite only numbers the index holds', () => {
    const unknown = citations.filter((c) => !live.has(c.number) && !retired.has(c.number));
    expect(unknown.map(describeCitation)).toEqual([]);
  });

  it('outside the notes, cite live notes, not folded ones', () => {
    const folded = citations.filter(
      (c) => !c.file.startsWith(`${DECISIONS}/`) && retired.has(c.number),
    );
    expect(
      folded.map((c) => `${describeCitation(c)}, folded into ${retired.get(c.number)}`),
    ).toEqual([]);
  });
});

describe('Markdown links', () => {
  const pages = FILES.filter((file) => file.endsWith('.md'));

  it('resolve to files, and #anchors to headings of the Markdown page', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = withoutCode(read(page));
      for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const link = match[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
        const [target, anchor] = link.split('#');
        const file = target ? path.join(path.dirname(page), decodeURI(target)) : page;
        if (!existsSync(path.join(root, file))) broken.push(`${page}: ${link} (no such file)`);
        else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(read(file)).has(anchor))
          broken.push(`${page}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('bench results', () => {
  const committed = git('ls-files', '--cached', RESULTS).filter((file) => file.endsWith('.json'));

  /**
   * Each committed result's kind (`keptKind`) and the number kept (`KEPT_RESULTS`), from one run of
   * report.mjs fed the results on stdin (only what keptKind reads of each: the rest need not travel).
   */
  function keptResults(): { kinds: string[]; kept: number } {
    const results = committed.map((file) => {
      const { machine, floor_saturation, only } = JSON.parse(read(file)) as Record<string, unknown>;
      return { machine, floor_saturation, only };
    });
    const script = `import { keptKind, KEPT_RESULTS } from ${JSON.stringify(path.join(root, 'tools/bench/lib/report.mjs'))};
      const results = JSON.parse(await new Promise((r) => { let s = ''; process.stdin.on('data', (c) => (s += c)).on('end', () => r(s)); }));
      console.log(JSON.stringify({ kinds: results.map(keptKind), kept: KEPT_RESULTS }));`;
    return JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        input: JSON.stringify(results),
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      }),
    ) as { kinds: string[]; kept: number };
  }

  it('keeps one committed result per kind: machine, kind of day and --only scenario (git history keeps the rest)', () => {
    const kinds = new Map<string, string[]>();
    keptResults().kinds.forEach((kind, i) =>
      kinds.set(kind, [...(kinds.get(kind) ?? []), path.basename(committed[i])]),
    );
    expect([...kinds].filter(([, files]) => files.length > 1)).toEqual([]);
  });

  it('keeps only the latest few (KEPT_RESULTS)', () => {
    const { kept } = keptResults();
    expect(kept).toBeGreaterThan(0);
    expect(committed.length).toBeLessThanOrEqual(kept);
  });

  it('has every result file a document or tool names', () => {
    const missing = TEXT_FILES.flatMap((file) =>
      [...read(file).matchAll(/bench-\d{4}-\d\d-\d\dT[\d-]+Z\.json/g)]
        .map((match) => match[0])
        .filter((name) => !existsSync(path.join(root, RESULTS, name)))
        .map((name) => `${file}: ${name}`),
    );
    expect(missing).toEqual([]);
  });
});
