import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../../..');

interface Bundle {
  bytes: number;
  inputs: string[];
  text: string;
}

describe('the browser entry (@genhub/contracts)', () => {
  let bundle: Bundle;

  beforeAll(() => {
    // esbuild runs in a child process: it refuses Jest's sandboxed realm.
    bundle = JSON.parse(
      execFileSync('node', ['tools/contracts/bundle-browser.cjs', '--text'], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 32 * 1024 * 1024,
      }),
    );
  }, 60_000);

  it('bundles for the browser without any server package', () => {
    const forbidden = [
      '@nestjs',
      'class-validator',
      'class-transformer',
      'reflect-metadata',
      'typeorm',
      'fastify',
      '/server/',
    ];
    for (const name of forbidden) {
      expect(bundle.inputs.filter((input) => input.includes(name))).toEqual([]);
      expect(bundle.text).not.toContain(name);
    }
    expect(bundle.text).not.toMatch(/\brequire\(/);
  });

  it('holds only the client, the types, the error catalogue, openapi-fetch and the SSE parser', () => {
    const packages = new Set(
      bundle.inputs.map((input) =>
        input.includes('node_modules/')
          ? input.split('node_modules/')[1].split('/')[0]
          : input.split('/src/')[0],
      ),
    );
    expect([...packages].sort()).toEqual(
      ['libs/shared/contracts', 'libs/shared/errors', 'eventsource-parser', 'openapi-fetch'].sort(),
    );
    expect(bundle.text).toContain('Invalid or revoked API key');
  });

  it('stays small (under 32 KB minified)', () => {
    expect(bundle.bytes).toBeLessThan(32 * 1024);
  });
});
