import { MEDIA_LIMITS, SNIFF_BYTES, sniffMediaFormat } from '../../media/media-formats.util';
import { DECLARED_SIZE_METADATA, type ObjectStorage } from '../../object-storage.types';
import { formatOfKey, INCOMING_PREFIX } from './upload-ticket.util';

/**
 * Makes a presigned direct upload usable, once: the object waiting under
 * `incoming/` is checked like any upload (its first bytes must be the format
 * its key declares, its size the one its ticket declared and within the
 * format's limit), then copied to its
 * public key server-side; a file that fails is deleted, so its URL stays 404.
 * Returns whether `key` now exists. Safe to run twice (the second finds no
 * incoming object).
 */
export async function promoteDirectUpload(storage: ObjectStorage, key: string): Promise<boolean> {
  if (!storage.copy) return false;
  const incoming = `${INCOMING_PREFIX}${key}`;
  const head = await storage.get(incoming, { start: 0, end: SNIFF_BYTES - 1 });
  if (!head) return (await storage.stat(key)) !== undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of head.body) chunks.push(chunk as Buffer);
  const expected = formatOfKey(key);
  const actual = sniffMediaFormat(Buffer.concat(chunks));
  const stat = await storage.stat(incoming);
  const fits =
    expected !== undefined &&
    actual?.contentType === expected.contentType &&
    stat !== undefined &&
    String(stat.size) === stat.metadata?.[DECLARED_SIZE_METADATA] &&
    stat.size <= MEDIA_LIMITS[expected.kind];
  if (fits) await storage.copy(incoming, key, expected.contentType);
  await storage.delete([incoming]);
  return fits;
}
