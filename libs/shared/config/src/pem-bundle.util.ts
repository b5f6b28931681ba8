import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

const CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Read once per value: connections are many, the file is the same. */
const bundles = new Map<string, string>();

/**
 * A CA bundle given as the PEM text itself or as the path of a PEM file: its
 * PEM text. Throws, with the reason, when the file cannot be read or holds no
 * certificate that parses.
 */
export function readPemBundle(value: string): string {
  const known = bundles.get(value);
  if (known !== undefined) return known;
  let text = value;
  if (!value.includes('-----BEGIN')) {
    try {
      text = readFileSync(value, 'utf8');
    } catch (error) {
      throw new Error(`cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  const certificates = text.match(CERTIFICATE) ?? [];
  if (!certificates.length) throw new Error('holds no PEM CERTIFICATE');
  for (const pem of certificates)
    try {
      new X509Certificate(pem);
    } catch {
      throw new Error('holds a CERTIFICATE that does not parse');
    }
  bundles.set(value, text);
  return text;
}
