import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '../../../..');

/** What a frontend team writes: submit, poll, read a completed result with full types. */
const PROGRAM = `
import {
  createGenhubClient,
  isTerminalResult,
  v1ErrorMessage,
  waitForTaskResult,
  TaskCode,
  type TaskResult,
  type SubmitAck,
  type Timings,
} from '@genhub/contracts';

export async function run(): Promise<string[]> {
  const client = createGenhubClient({ baseUrl: 'https://api.example.com', apiKey: 'key' });

  const submitted = await client.POST('/v1/local/simulator/test', {
    body: { prompt: 'a lighthouse at dawn', num_outputs: 2 },
    params: { query: { webhook: 'https://hooks.example.com/genhub', prefix: 'demo/run-1' } },
  });
  if (submitted.error) {
    const message: string = v1ErrorMessage(submitted.error);
    throw new Error(message);
  }
  if (submitted.data.status !== 'created') throw new Error('expected an acknowledgement');
  const ack: SubmitAck = submitted.data;
  const estimate: number | null = ack.estimated_duration;

  const polled = await client.GET('/v1/requests/{request_id}', {
    params: { path: { request_id: ack.id } },
  });
  if (polled.data && !isTerminalResult(polled.data)) {
    const still: 'processing' = polled.data.status;
    void still;
  }

  const result: TaskResult = await waitForTaskResult(client, ack.id, {
    initialDelayMs: (estimate ?? 0) * 1000,
  });
  if (result.status === 'failed') {
    const code: number = result.code;
    const error: string = result.error;
    return [String(code), error];
  }
  if (result.status === 'completed') {
    const ok: 0 = result.code;
    const timings: Timings = result.timings;
    const total: number = timings.total + timings.queue_wait + timings.api_call;
    const outputs: string[] = result.outputs;
    void ok;
    void TaskCode.Success;
    // @ts-expect-error misspelt field: the result has no 'output'
    void result.output;
    return [...outputs, String(total)];
  }
  return [];
}

// A generic submit keeps the slug path typed, and a wrong query type is refused.
export async function generic() {
  const client = createGenhubClient({ baseUrl: '', apiKey: 'k' });
  await client.POST('/v1/{provider_id}/{model_id}/{run_type}', {
    params: { path: { provider_id: 'local', model_id: 'simulator', run_type: 'test' }, query: { sync: true } },
    body: { prompt: 'x' },
  });
  const balance = await client.GET('/v1/balance');
  if (balance.data) {
    const level: 'Bronze' | 'Silver' | 'Gold' | 'Platinum' = balance.data.account_level;
    void level;
  }
}
`;

function compile(source: string): ts.Diagnostic[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'contracts-types-'));
  try {
    const file = path.join(dir, 'frontend.ts');
    writeFileSync(file, source);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      // A browser program: DOM types, no Node types.
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
      paths: {
        '@genhub/contracts': [path.join(root, 'libs/shared/contracts/src/index.ts')],
        '@genhub/errors': [path.join(root, 'libs/shared/errors/src/index.ts')],
      },
      typeRoots: [],
      skipLibCheck: true,
    });
    return [...ts.getPreEmitDiagnostics(program)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const format = (diagnostics: ts.Diagnostic[]) =>
  diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));

describe('a frontend program against the generated types and client', () => {
  it('compiles with no error: submit, poll, read outputs and timings (and the @ts-expect-error is used)', () => {
    expect(format(compile(PROGRAM))).toEqual([]);
  }, 60_000);

  it('reports the misspelt field once the @ts-expect-error is removed', () => {
    const diagnostics = compile(PROGRAM.replace(/\/\/ @ts-expect-error.*\n/, ''));
    expect(format(diagnostics)).toEqual([
      expect.stringMatching(
        /^Property 'output' does not exist on type .*Did you mean 'outputs'\?$/s,
      ),
    ]);
  }, 60_000);

  it('refuses a body that breaks the model schema and a wrong query type', () => {
    const broken = PROGRAM.replace(
      "body: { prompt: 'a lighthouse at dawn', num_outputs: 2 }",
      "body: { prompt: 'a lighthouse at dawn', num_outputs: 'two' }",
    ).replace('query: { sync: true }', "query: { sync: 'yes' }");
    const messages = format(compile(broken));
    expect(messages).toHaveLength(2);
    expect(messages).toEqual([
      "Type 'string' is not assignable to type 'number'.",
      "Type 'string' is not assignable to type 'boolean | undefined'.",
    ]);
  }, 60_000);

  it("compiles the API guide's frontend example as written", () => {
    const readme = readFileSync(path.join(root, 'docs/api-guide.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Contracts for frontend teams'));
    const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example).toContain('createGenhubClient');
    expect(format(compile(`declare const apiKey: string;\n${example}\nexport {};\n`))).toEqual([]);
  }, 60_000);
});
