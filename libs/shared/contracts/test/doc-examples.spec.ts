import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '../../../..');

/** The pages a reader walks: the README and every guide under docs/ (not the decision notes). */
const PAGES = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

interface Example {
  page: string;
  line: number;
  source: string;
}

/** Every ```ts / ```typescript block of a page, with the line it starts on. */
function examplesOf(page: string): Example[] {
  const text = readFileSync(path.join(root, page), 'utf8');
  return [...text.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)].map((match) => ({
    page,
    line: text.slice(0, match.index).split('\n').length,
    source: match[1],
  }));
}

/**
 * Type-checks one example as its reader would run it: a module of its own,
 * strict, against the real packages of the workspace (written under
 * node_modules/.cache so `openai` and friends resolve as installed).
 */
function diagnosticsOf(example: Example): string[] {
  const cache = path.join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(path.join(cache, 'doc-example-'));
  try {
    const file = path.join(dir, 'example.ts');
    // The guides' snippets assume an API key in scope when they do not read it themselves.
    writeFileSync(file, `declare const apiKey: string;\n${example.source}\nexport {};\n`);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      typeRoots: [path.join(root, 'node_modules/@types')],
      paths: {
        '@genhub/contracts': [path.join(root, 'libs/shared/contracts/src/index.ts')],
        '@genhub/errors': [path.join(root, 'libs/shared/errors/src/index.ts')],
      },
      skipLibCheck: true,
    });
    return ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const EXAMPLES = PAGES.flatMap(examplesOf);

describe('the TypeScript examples of the docs', () => {
  it('are found (the guides have client examples)', () => {
    expect(EXAMPLES.map((e) => e.page)).toEqual(expect.arrayContaining(['docs/api-guide.md']));
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(2);
  });

  it.each(EXAMPLES.map((e) => [`${e.page}:${e.line}`, e] as const))(
    '%s compiles as written',
    (_where, example) => {
      expect(diagnosticsOf(example)).toEqual([]);
    },
    60_000,
  );

  it('a broken example does not compile (the check can fail)', () => {
    const chat = EXAMPLES.find((e) => e.source.includes("from 'openai'"));
    expect(chat).toBeDefined();
    const broken = {
      ...(chat as Example),
      source: (chat as Example).source.replace('messages:', 'mesages:'),
    };
    expect(diagnosticsOf(broken).length).toBeGreaterThan(0);
  }, 60_000);
});
