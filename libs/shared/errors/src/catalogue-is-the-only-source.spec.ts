import fs from 'node:fs';
import path from 'node:path';
import { INSUFFICIENT_BALANCE_INNER_CODE } from './app-error-codes.constants';
import { TASK_CODES, TASK_FAILURE_CODES } from './task-error-codes.constants';

/**
 * The catalogue is the only place a task error code or message is spelled
 * out. Source files of every other app and lib must use `TaskCode.X`,
 * `TASK_CODES[...]` and `taskErrorMessage(...)` instead. Tests are exempt:
 * they assert the black-box values on purpose.
 */
const root = path.resolve(__dirname, '../../../..');
const OWN_DIR = path.join(root, 'libs/shared/errors');
const SKIP_DIRS = new Set(['node_modules', 'dist', 'generated', '.nx', '.data']);
const TEST_FILE = /\.(spec|int-spec)\.ts$|\/test\//;

const CODES = [...TASK_FAILURE_CODES, INSUFFICIENT_BALANCE_INNER_CODE];
const ANY_CODE = `(${CODES.join('|')})`;
/** Where a raw task code is a code (not a port, a price or a length). */
const CODE_LITERALS = [
  `\\bcode\\s*(?::|===?|!==?)\\s*${ANY_CODE}\\b`, // { code: 1402 }, code === 5003
  `\\bAdapterError\\(\\s*${ANY_CODE}\\b`, // new AdapterError(5003, …)
  `\\btaskErrorMessage\\(\\s*${ANY_CODE}\\b`, // taskErrorMessage(5003, …)
  `\\?\\?[^;\\n]*?\\b${ANY_CODE}\\b`, // task.code ?? 5000
  `\\breturn\\s+${ANY_CODE}\\s*;`, // return 1402;
  `\\?\\s*${ANY_CODE}\\s*:\\s*${ANY_CODE}\\b`, // x ? 1400 : 1401
].map((source) => new RegExp(source, 'g'));
const MESSAGES = TASK_FAILURE_CODES.map((code) => TASK_CODES[code].message);

export function findViolations(source: string): string[] {
  const found: string[] = [];
  for (const pattern of CODE_LITERALS)
    for (const match of source.matchAll(pattern)) found.push(`code literal ${match[1]}`);
  for (const message of MESSAGES) if (source.includes(message)) found.push(`message "${message}"`);
  return found;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full !== OWN_DIR) yield* sourceFiles(full);
    } else if (entry.name.endsWith('.ts') && !TEST_FILE.test(full)) yield full;
  }
}

describe('the error catalogue is the only source of task codes and messages', () => {
  it('recognises a hard-coded code or message', () => {
    expect(findViolations(`return { code: 1402, error: 'x' }`)).toEqual(['code literal 1402']);
    expect(findViolations(`if (task.code === 5003) retry();`)).toEqual(['code literal 5003']);
    expect(findViolations(`error: { code: 1300, error }`)).toEqual(['code literal 1300']);
    expect(findViolations(`throw new AdapterError(5003, 'down')`)).toEqual(['code literal 5003']);
    expect(findViolations(`new AdapterError(\n  1405,\n  'no')`)).toEqual(['code literal 1405']);
    expect(findViolations(`taskErrorMessage(5003, 'x')`)).toEqual(['code literal 5003']);
    expect(findViolations(`code: task.code ?? (done ? 0 : 5000),`)).toEqual(['code literal 5000']);
    expect(findViolations(`  return 1402;`)).toEqual(['code literal 1402']);
    expect(findViolations(`return missing ? 1400 : 1401;`)).toEqual(['code literal 1400']);
    expect(findViolations(`throw new Error('Timed out waiting for the provider')`)).toEqual([
      'message "Timed out waiting for the provider"',
    ]);
    expect(
      findViolations(`{ code: TaskCode.MediaAccessFailed, fail_code: 1402, port: 5000 }`),
    ).toEqual([]);
  });

  it('finds none in any other app or lib', () => {
    const files = [
      ...sourceFiles(path.join(root, 'apps')),
      ...sourceFiles(path.join(root, 'libs')),
    ];
    // Not vacuous: the walk really covers the apps and libs.
    expect(files.some((f) => f.endsWith('apps/gateway/src/main.ts'))).toBe(true);
    expect(files.some((f) => f.startsWith(OWN_DIR))).toBe(false);
    const violations = files.flatMap((file) =>
      findViolations(fs.readFileSync(file, 'utf8')).map(
        (v) => `${path.relative(root, file)}: ${v}`,
      ),
    );
    expect(violations).toEqual([]);
  });
});
