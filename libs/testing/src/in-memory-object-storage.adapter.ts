import { Readable } from 'node:stream';
import type { ObjectStorage, PutOptions, StoredObject, StoredStream } from '@genhub/storage';

/** A test-only ObjectStorage kept in a Map; URLs are `${base}/${key}`. */
export class InMemoryObjectStorage implements ObjectStorage {
  readonly objects = new Map<string, { data: Buffer; contentType: string; at: Date }>();

  constructor(private readonly base = 'http://cdn.test') {}

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<StoredObject> {
    const chunks: Buffer[] = [];
    if (Buffer.isBuffer(body)) chunks.push(body);
    else for await (const c of body) chunks.push(c as Buffer);
    const data = Buffer.concat(chunks);
    this.objects.set(key, { data, contentType: options.contentType, at: new Date() });
    return { key, size: data.length, contentType: options.contentType };
  }

  async get(key: string): Promise<StoredStream | undefined> {
    const o = this.objects.get(key);
    return (
      o && { key, size: o.data.length, contentType: o.contentType, body: Readable.from([o.data]) }
    );
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    const o = this.objects.get(key);
    return o && { key, size: o.data.length, contentType: o.contentType, lastModified: o.at };
  }

  async delete(keys: string[]): Promise<void> {
    for (const k of keys) this.objects.delete(k);
  }

  async deletePrefix(prefix: string): Promise<number> {
    let n = 0;
    for (const k of [...this.objects.keys()])
      if (k.startsWith(prefix) && this.objects.delete(k)) n++;
    return n;
  }

  async *listOlderThan(prefix: string, before: Date): AsyncIterable<string> {
    for (const [k, o] of this.objects) if (k.startsWith(prefix) && o.at < before) yield k;
  }

  urlFor(key: string): string {
    return `${this.base}/${key}`;
  }

  keyFromUrl(url: string): string | undefined {
    return url.startsWith(`${this.base}/`) ? url.slice(this.base.length + 1) : undefined;
  }

  async check(): Promise<void> {
    return undefined;
  }
}
