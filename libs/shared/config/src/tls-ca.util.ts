import { existsSync, readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { ValidateBy } from 'class-validator';

const PEM_CERTIFICATE = '-----BEGIN CERTIFICATE-----';

/**
 * The PEM text of a CA bundle setting (DATABASE_TLS_CA, S3_TLS_CA,
 * OUTBOUND_TLS_CA): the value itself when it is PEM text (a Kubernetes
 * Secret's value, an environment variable), else the file it names.
 */
export function readCaBundle(setting: string): string {
  return setting.includes(PEM_CERTIFICATE) ? setting : readFileSync(setting, 'utf8');
}

/**
 * The CAs a client trusts when a setting adds a private one: Node's own
 * (Mozilla's) roots and the setting's certificates, so public endpoints keep
 * working. Undefined when the setting is unset: Node's defaults apply.
 */
export function trustedCas(setting: string | undefined): string[] | undefined {
  return setting ? [...rootCertificates, readCaBundle(setting)] : undefined;
}

/** Why a CA bundle setting is unusable, or undefined when it holds at least one PEM certificate. */
export function caBundleProblem(setting: string): string | undefined {
  if (setting.includes(PEM_CERTIFICATE)) return undefined;
  if (!existsSync(setting)) return "must be a PEM file's path or PEM text (no such file)";
  try {
    if (readFileSync(setting, 'utf8').includes(PEM_CERTIFICATE)) return undefined;
  } catch (error) {
    return `must be a readable PEM file (${(error as Error).message})`;
  }
  return `must name a file of PEM certificates (no "${PEM_CERTIFICATE}" in it)`;
}

/** Validates a CA bundle setting at start-up: a missing file is a configuration error, not a TLS failure later. */
export const IsCaBundle = () =>
  ValidateBy({
    name: 'isCaBundle',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && !caBundleProblem(value),
      defaultMessage: (args) =>
        typeof args?.value === 'string'
          ? (caBundleProblem(args.value) ?? 'is invalid')
          : "must be a PEM file's path or PEM text",
    },
  });
