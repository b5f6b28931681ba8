import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, startGateway } from '../test/gateway-harness.util';

/** The console's files at /console/ when CONSOLE_DIR names a build; a wrong directory stops the start. */
describe('console files (in-process gateway)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'genhub-console-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves index.html fresh and the hashed assets for a year; /console redirects', async () => {
    mkdirSync(join(dir, 'build', 'assets'), { recursive: true });
    writeFileSync(join(dir, 'build', 'index.html'), '<title>genhub console</title>');
    writeFileSync(join(dir, 'build', 'assets', 'index-abc123.js'), 'console.log(1)');
    const gw = await startGateway({ CONSOLE_DIR: join(dir, 'build') });
    try {
      const page = await fetch(`${gw.url}/console/`);
      expect([page.status, page.headers.get('cache-control'), await page.text()]).toEqual([
        200,
        'no-cache',
        '<title>genhub console</title>',
      ]);
      const asset = await fetch(`${gw.url}/console/assets/index-abc123.js`);
      expect([asset.status, asset.headers.get('cache-control')]).toEqual([
        200,
        'public, max-age=31536000, immutable',
      ]);
      const bare = await fetch(`${gw.url}/console`, { redirect: 'manual' });
      expect([bare.status, bare.headers.get('location')]).toEqual([301, '/console/']);
      expect((await fetch(`${gw.url}/console/missing.js`)).status).toBe(404);
    } finally {
      await gw.close();
    }
  });

  it('refuses to start when CONSOLE_DIR holds no build, before anything connects', async () => {
    await expect(createGateway({ CONSOLE_DIR: join(dir, 'nothing-here') })).rejects.toThrow(
      /CONSOLE_DIR must be a directory holding the console build \(index\.html\)/,
    );
  });

  it('serves no console when CONSOLE_DIR is unset', async () => {
    const gw = await startGateway({ CONSOLE_DIR: undefined });
    try {
      expect((await fetch(`${gw.url}/console/`)).status).toBe(404);
    } finally {
      await gw.close();
    }
  });
});
