import { SENSITIVE_KEYS } from '@genhub/config';

/**
 * What makes a shipped file unsafe to expose as it is (decision 0127): a
 * credential with a working default, a bucket anyone may list, a published
 * storage console or management port, an image tag that moves. Each check
 * returns the problems it finds, so a test can show it catches a bad file.
 */

/** A compose service, as far as these checks read it. */
export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
}

/** Secrets of the backing services, besides the apps' own (SENSITIVE_KEYS). */
const BACKING_SECRETS = ['POSTGRES_PASSWORD', 'MINIO_ROOT_PASSWORD'];
const isSecret = (name: string) => SENSITIVE_KEYS.has(name) || BACKING_SECRETS.includes(name);
const SECRET_NAME = /(TOKEN|PEPPER|PASSWORD|SECRET)/;

const INTERPOLATION = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g;

/** How to make a secret: every refusal to start without one says it. */
export const GENERATE = 'openssl rand -hex 32';

/**
 * Compose's interpolation of `${VAR}`, `${VAR:-default}` and `${VAR:?message}`
 * against `env` (the shell or docker/.env): a required variable that is unset
 * or empty throws its message, as `docker compose` refuses to start.
 */
export function interpolate(value: unknown, env: Record<string, string | undefined>): string {
  return String(value).replace(INTERPOLATION, (_, name: string, op?: string, arg?: string) => {
    const set = env[name] !== undefined && env[name] !== '';
    if (op === ':?' || op === '?') {
      if (!set) throw new Error(`required variable ${name} is missing a value: ${arg}`);
      return env[name] as string;
    }
    if (op === ':-' || op === '-') return set ? (env[name] as string) : (arg ?? '');
    return env[name] ?? '';
  });
}

/** The variables a value requires (`${VAR:?…}`) and those it defaults (`${VAR:-…}`). */
export function interpolations(value: unknown): { name: string; op?: string; arg?: string }[] {
  return [...String(value).matchAll(INTERPOLATION)].map(([, name, op, arg]) => ({
    name,
    op,
    arg,
  }));
}

/** Every string of a service (environment, command, entrypoint, ports, volumes). */
function stringsOf(service: ComposeService): string[] {
  return [
    ...Object.values(service.environment ?? {}),
    ...(service.command ?? []),
    ...(service.entrypoint ?? []),
    ...(service.ports ?? []),
    ...(service.volumes ?? []),
  ].map(String);
}

/**
 * An image that always means the same bits: a tag that is not `latest` (or a
 * digest); MinIO's own images by release tag (`RELEASE.<date>`).
 */
export function imageProblem(image: string): string | undefined {
  if (/@sha256:[0-9a-f]{64}$/.test(image)) return undefined;
  const tag = /:([^/:]+)$/.exec(image)?.[1];
  if (!tag || tag === 'latest') return `image ${image} is not pinned: give it a release tag`;
  if (/^(quay\.io\/)?minio\//.test(image) && !/^RELEASE\.\d{4}-\d{2}-\d{2}T/.test(tag))
    return `image ${image} is not pinned: MinIO images take a RELEASE.<date> tag`;
  return undefined;
}

interface PolicyStatement {
  Effect?: string;
  Principal?: unknown;
  Action?: string | string[];
  Resource?: string | string[];
}

const list = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** `*`, `{AWS: "*"}` or `{AWS: ["*"]}`: anyone, signed in or not. */
function isAnyone(principal: unknown): boolean {
  if (principal === '*') return true;
  const aws = (principal as { AWS?: string | string[] } | undefined)?.AWS;
  return list(aws).includes('*');
}

/** An IAM action pattern (`s3:List*`, `s3:*`, `*`) that covers `action`. */
const covers = (pattern: string, action: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i').test(
    action,
  );

/**
 * A bucket policy that lets anyone read an object by its name and nothing
 * else: every statement allowing anyone grants `s3:GetObject` alone, on
 * object ARNs (`arn:aws:s3:::<bucket>/…`), never the bucket itself, so never
 * `s3:ListBucket` (a listing names every tenant's files).
 */
export function bucketPolicyProblems(policy: { Statement?: PolicyStatement[] }): string[] {
  const problems: string[] = [];
  const statements = policy.Statement ?? [];
  if (statements.length === 0) problems.push('the bucket policy has no statement');
  for (const [i, statement] of statements.entries()) {
    if (statement.Effect !== 'Allow' || !isAnyone(statement.Principal)) continue;
    const actions = list(statement.Action);
    if (actions.some((a) => covers(a, 's3:ListBucket')))
      problems.push(`statement ${i} grants anonymous s3:ListBucket: anyone could list every file`);
    for (const action of actions.filter((a) => a !== 's3:GetObject'))
      problems.push(`statement ${i} grants anonymous ${action}: only s3:GetObject is public`);
    for (const resource of list(statement.Resource))
      if (!/^arn:aws:s3:::[^/]+\/.+/.test(resource))
        problems.push(`statement ${i} grants anonymous access to ${resource}: objects only`);
  }
  return problems;
}

/** The ports a service publishes on every interface of the host (not bound to 127.0.0.1). */
function publishedEverywhere(service: ComposeService): { host: string; container: string }[] {
  return (service.ports ?? []).flatMap((entry) => {
    const parts = String(entry).split(':');
    if (parts.length === 3 && parts[0] === '127.0.0.1') return [];
    const container = parts[parts.length - 1];
    const host = parts.length >= 2 ? parts[parts.length - 2] : container;
    return [{ host, container }];
  });
}

export interface ComposeExposure {
  services: Record<string, ComposeService>;
  /** The apps built from this repository, and the one that serves the public API. */
  apps: readonly string[];
  publicApp: string;
  /** Reads a file a volume mounts, by its path relative to the compose file. */
  readHostFile: (path: string) => string;
}

/**
 * docker/compose.yml as shipped must not work with a credential nobody chose:
 * every secret is required from the environment (`${VAR:?…}` saying how to
 * make one), never defaulted or written out. The apps run in production mode.
 * Only the gateway and MinIO's S3 API are published to the network; the
 * storage console and the workers' management ports are not. The bucket is
 * readable object by object, never listable. Images are pinned.
 */
export function composeExposureProblems(compose: ComposeExposure): string[] {
  const problems: string[] = [];
  for (const [name, service] of Object.entries(compose.services)) {
    for (const text of stringsOf(service))
      for (const { name: variable, op, arg } of interpolations(text)) {
        if (!SECRET_NAME.test(variable)) continue;
        if (op !== ':?')
          problems.push(
            `${name}: \${${variable}} must be required (\${${variable}:?…}), not ${op ? `defaulted to "${arg}"` : 'empty when unset'}`,
          );
        else if (!arg?.includes(GENERATE))
          problems.push(`${name}: the message of \${${variable}:?…} must say \`${GENERATE}\``);
      }
    for (const [variable, value] of Object.entries(service.environment ?? {})) {
      if (!isSecret(variable)) continue;
      // A URL is a secret for the credentials in it: one without any (redis://redis:6379 on
      // the compose network) has nothing to default.
      const url = /^[a-z]+:\/\/(?:[^:@/]*:([^@]*)@)?/.exec(String(value));
      const credential = url ? url[1] : String(value);
      if (credential === undefined) continue;
      if (!interpolations(credential).some((i) => i.op === ':?' && SECRET_NAME.test(i.name)))
        problems.push(`${name}: ${variable} is written out; require it from the environment`);
    }

    if (service.image && !service.build) {
      const problem = imageProblem(service.image);
      if (problem) problems.push(`${name}: ${problem}`);
    }

    const console = service.command?.[service.command.indexOf('--console-address') + 1];
    const consolePort =
      service.command?.includes('--console-address') && console ? console.split(':').pop() : '';
    for (const { host, container } of publishedEverywhere(service)) {
      if (container === consolePort)
        problems.push(`${name}: the storage console (${container}) is published on port ${host}`);
      else if (compose.apps.includes(name) && name !== compose.publicApp)
        problems.push(
          `${name}: its management port ${container} is published on every interface (bind it to 127.0.0.1)`,
        );
    }

    const script = (service.entrypoint ?? []).join(' ');
    if (/\bmc\s+(anonymous|policy)\s+set\s+(download|upload|public)\b/.test(script))
      problems.push(
        `${name}: a canned anonymous policy lets anyone list the bucket: use mc anonymous set-json with objects only`,
      );
    for (const [, file] of script.matchAll(/\bmc\s+anonymous\s+set-json\s+(\S+)/g)) {
      const mount = (service.volumes ?? [])
        .map((v) => String(v).split(':'))
        .find(([, inside]) => inside === file);
      if (!mount) {
        problems.push(`${name}: the bucket policy ${file} is not mounted from this repository`);
        continue;
      }
      for (const problem of bucketPolicyProblems(JSON.parse(compose.readHostFile(mount[0]))))
        problems.push(`${name}: ${mount[0]}: ${problem}`);
    }
  }
  for (const app of compose.apps)
    if (compose.services[app]?.environment?.NODE_ENV !== 'production')
      problems.push(`${app}: NODE_ENV must be production (production mode)`);
  return problems;
}
