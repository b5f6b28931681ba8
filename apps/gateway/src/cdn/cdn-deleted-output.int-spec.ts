import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { OBJECT_STORAGE, ObjectStorage } from '@genhub/storage';
import { TINY_PNG } from '@genhub/testing';
import {
  call,
  createAccountWithKey,
  RunningGateway,
  startGateway,
} from '../test/gateway-harness.util';

/**
 * A deleted output's URL stops working (docs/interface.md, "Task states"):
 * `/cdn` answers 404 at once, and every file it serves may be kept by a
 * browser or CDN for five minutes only, never a year (decision 0128).
 */
describe('/cdn for uploads and outputs, before and after a delete (in-process gateway, local disk)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'genhub-cdn-deleted-'));
  let gw: RunningGateway;
  let key: string;
  /** The path of a file URL, served by this gateway (file URLs name PUBLIC_BASE_URL). */
  const cdn = (url: string) => `${gw.url}${new URL(url).pathname}`;

  beforeAll(async () => {
    gw = await startGateway({ STORAGE_DIR: join(dir, 'objects') });
    ({ key } = await createAccountWithKey(gw.url, 1));
  });
  afterAll(async () => {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves an upload with a five-minute cache', async () => {
    const form = new FormData();
    form.append('file', new Blob([TINY_PNG], { type: 'image/png' }), 'dot.png');
    const uploaded = await fetch(`${gw.url}/api/v3/files/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const { url } = ((await uploaded.json()) as { data: { url: string } }).data;
    const file = await fetch(cdn(url));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it('serves a completed task’s output with a five-minute cache, and 404 once the task is deleted', async () => {
    const submitted = await call(`${gw.url}/api/v3/local/simulator/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: { prompt: 'an output to delete' },
    });
    const { id } = (submitted.body as { data: { id: string } }).data;
    // The run, as the task-worker ends it: its output stored, the task completed with its key.
    const storage = gw.app.get<ObjectStorage>(OBJECT_STORAGE);
    const outputKey = `outputs/cdn-test/${id}/0.png`;
    await storage.put(outputKey, TINY_PNG, { contentType: 'image/png' });
    const url = storage.urlFor(outputKey);
    await gw.app.get(DataSource).query(
      `UPDATE tasks.tasks SET status = 'completed', code = 0, outputs = $2, output_keys = $3,
         timings = '{"queue_wait":1,"worker_init":1,"api_call":1,"save":1,"run_overhead":1,"total":5}'
       WHERE id = $1`,
      [id, JSON.stringify([url]), JSON.stringify([outputKey])],
    );

    const before = await fetch(cdn(url));
    expect(before.status).toBe(200);
    expect(before.headers.get('cache-control')).toBe('public, max-age=300');
    expect(Buffer.from(await before.arrayBuffer()).equals(TINY_PNG)).toBe(true);

    const deleted = await call(`${gw.url}/api/v3/predictions/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(deleted.status).toBe(200);

    const after = await fetch(cdn(url));
    expect(after.status).toBe(404);
    expect(after.headers.get('cache-control')).toBe('no-store');
  });
});
