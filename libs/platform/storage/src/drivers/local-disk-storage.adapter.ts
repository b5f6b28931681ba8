import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import {
  access,
  constants,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ObjectStorage,
  ObjectTooLargeError,
  PutOptions,
  StoredObject,
  StoredStream,
  resolveRange,
} from '../object-storage.types';
import {
  assertObjectKey,
  assertObjectPrefix,
  contentTypeFromKey,
  keyFromCdnUrl,
  urlForKey,
} from '../util/object-key.util';
import { SizeLimitStream } from '../util/size-limit.stream';
import { OBJECT_CACHE_CONTROL, storedContentType } from '../media/served-content.util';

interface Sidecar {
  contentType: string;
  cacheControl?: string;
}

/**
 * Objects as files under one root. Layout:
 * - `<root>/<key>`            the bytes
 * - `<root>/.meta/<key>.json` content type (and cache control): an inline type or
 *   `application/octet-stream` (storedContentType); `/cdn` checks it again when serving
 * - `<root>/.tmp/<uuid>`      writes in progress (renamed into place when complete)
 * Keys never start a segment with a dot, so they cannot reach `.meta`/`.tmp`.
 */
export class LocalDiskStorage implements ObjectStorage {
  readonly root: string;

  constructor(
    root: string,
    private readonly cdnUrl: string,
  ) {
    this.root = resolve(root);
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<StoredObject> {
    const file = this.fileOf(key);
    const contentType = storedContentType(options.contentType);
    const tmpDir = join(this.root, '.tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, randomUUID());
    let size: number;
    try {
      if (Buffer.isBuffer(body)) {
        if (options.maxBytes !== undefined && body.length > options.maxBytes) {
          throw new ObjectTooLargeError(options.maxBytes);
        }
        await writeFile(tmp, body);
        size = body.length;
      } else {
        const limiter = new SizeLimitStream(options.maxBytes);
        await pipeline(body, limiter, createWriteStream(tmp));
        size = limiter.bytes;
      }
      await this.writeSidecar(key, {
        contentType,
        cacheControl: options.cacheControl ?? OBJECT_CACHE_CONTROL,
      });
      await mkdir(dirname(file), { recursive: true });
      await rename(tmp, file);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
    const info = await stat(file);
    return { key, size, contentType, lastModified: info.mtime };
  }

  async get(
    key: string,
    range?: { start: number; end?: number },
  ): Promise<StoredStream | undefined> {
    const object = await this.stat(key);
    if (!object) return undefined;
    const served = range ? resolveRange(range, object.size) : undefined;
    const body = createReadStream(
      this.fileOf(key),
      served ? { start: served.start, end: served.end } : {},
    );
    return { ...object, body, range: served };
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    const file = this.fileOf(key);
    const info = await stat(file).catch(ignoreMissing);
    if (!info || !info.isFile()) return undefined;
    const sidecar = await this.readSidecar(key);
    return {
      key,
      size: info.size,
      contentType: sidecar?.contentType ?? contentTypeFromKey(key),
      lastModified: info.mtime,
    };
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) {
      await unlink(this.fileOf(key)).catch(ignoreMissing);
      await unlink(this.sidecarOf(key)).catch(ignoreMissing);
      await this.pruneEmptyDirs(dirname(this.fileOf(key)), this.root);
      await this.pruneEmptyDirs(dirname(this.sidecarOf(key)), join(this.root, '.meta'));
    }
  }

  async deletePrefix(prefix: string): Promise<number> {
    const keys: string[] = [];
    for await (const entry of this.walk(prefix)) keys.push(entry.key);
    await this.delete(keys);
    return keys.length;
  }

  async *listOlderThan(prefix: string, before: Date): AsyncIterable<string> {
    for await (const entry of this.walk(prefix)) {
      if (entry.mtime < before) yield entry.key;
    }
  }

  urlFor(key: string): string {
    return urlForKey(this.cdnUrl, key);
  }

  keyFromUrl(url: string): string | undefined {
    return keyFromCdnUrl(this.cdnUrl, url);
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.R_OK | constants.W_OK);
  }

  /** The file of a key; refuses anything that would resolve outside the root. */
  private fileOf(key: string): string {
    assertObjectKey(key);
    const file = resolve(this.root, key);
    if (!file.startsWith(this.root + sep)) throw new Error('object key escapes the storage root');
    return file;
  }

  private sidecarOf(key: string): string {
    return join(this.root, '.meta', `${key}.json`);
  }

  private async writeSidecar(key: string, sidecar: Sidecar): Promise<void> {
    const file = this.sidecarOf(key);
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${randomUUID()}.tmp`;
    await writeFile(tmp, JSON.stringify(sidecar));
    await rename(tmp, file);
  }

  private async readSidecar(key: string): Promise<Sidecar | undefined> {
    const raw = await readFile(this.sidecarOf(key), 'utf8').catch(ignoreMissing);
    if (!raw) return undefined;
    try {
      return JSON.parse(raw) as Sidecar;
    } catch {
      return undefined;
    }
  }

  /** Every stored object whose key starts with `prefix` (walks only the folder the prefix names). */
  private async *walk(prefix: string): AsyncGenerator<{ key: string; mtime: Date }> {
    assertObjectPrefix(prefix);
    const lastSlash = prefix.lastIndexOf('/');
    const startDir = lastSlash === -1 ? this.root : join(this.root, prefix.slice(0, lastSlash));
    const stack = [startDir];
    while (stack.length) {
      const dir = stack.pop() as string;
      const entries = await readdir(dir, { withFileTypes: true }).catch(ignoreMissing);
      if (!entries) continue;
      for (const entry of entries) {
        if (entry.name.startsWith('.')) continue;
        const full = join(dir, entry.name);
        const key = relative(this.root, full).split(sep).join('/');
        if (entry.isDirectory()) {
          if (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)) stack.push(full);
        } else if (entry.isFile() && key.startsWith(prefix)) {
          const info = await stat(full).catch(ignoreMissing);
          if (info) yield { key, mtime: info.mtime };
        }
      }
    }
  }

  /** Removes empty folders from `dir` up to (not including) `stop`. */
  private async pruneEmptyDirs(dir: string, stop: string): Promise<void> {
    let current = dir;
    while (current.startsWith(stop + sep)) {
      try {
        await rmdir(current);
      } catch {
        return;
      }
      current = dirname(current);
    }
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
  throw error;
}
