import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// The check decision 0132 promises: the statements are typed on the tables
// the migrations make, so renaming a column in a migration (and regenerating
// the table types, `npm run db:types`) fails the type check of every statement
// that still names the old column. Compiled here in memory, with the tasks
// domain's generated types changed as a rename would change them.

const root = join(__dirname, '../..');

/** Each domain's statements, and a column they use. */
const DOMAINS = [
  ['tasks', 'task.statements.ts', 'price_units: number;'],
  ['billing', 'ledger.statements.ts', 'reserved_units: Generated<number>;'],
  ['webhooks', 'delivery.statements.ts', 'body: string | null;'],
] as const;

function typeErrors(domain: string, statements: string, edit: (types: string) => string): string[] {
  const lib = join(root, 'libs', domain, 'data-access');
  const TYPES = join(lib, 'src/generated/schema.types.ts');
  const STATEMENTS = join(lib, 'src/statements', statements);
  const config = ts.getParsedCommandLineOfConfigFile(
    join(lib, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!config) throw new Error('no tsconfig');
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => (file === TYPES ? edit(readFileSync(TYPES, 'utf8')) : readFile(file));
  const program = ts.createProgram([STATEMENTS], { ...config.options, noEmit: true }, host);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(STATEMENTS))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe.each(DOMAINS)('the %s statements', (domain, statements, column) => {
  const name = column.slice(0, column.indexOf(':'));

  it('compile against the migrated schema as it is', () => {
    expect(typeErrors(domain, statements, (types) => types)).toEqual([]);
  });

  it(`fail the type check when a column they use (${name}) is renamed`, () => {
    const renamed = (types: string) => {
      expect(types).toContain(`  ${column}`);
      return types.replace(`  ${column}`, `  ${name}_renamed${column.slice(name.length)}`);
    };
    const errors = typeErrors(domain, statements, renamed);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toContain(name);
  });
});
