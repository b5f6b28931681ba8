/**
 * Production mode (decision 0127): `NODE_ENV=production`, which the Docker
 * image and the Kubernetes manifests set and `npm start`, the tests, the bench
 * and the fault injection do not. In it a piece refuses settings that are
 * safe on a laptop and unsafe on the internet (a published secret, the
 * simulator), and may default differently. `loadConfig` applies both, so only
 * the pieces an app loads are checked.
 */
export const PRODUCTION_MODE = 'NODE_ENV=production';

export type Environment = Readonly<Record<string, string | undefined>>;

export function isProduction(env: Environment): boolean {
  return env.NODE_ENV === 'production';
}

/**
 * A production rule of one variable: the reason its value is refused, or
 * undefined. `config` is the validated piece; `env` the whole environment.
 */
export type ProductionRule = (
  value: unknown,
  config: object,
  env: Environment,
) => string | undefined;

const RULES = new WeakMap<object, { property: string; rule: ProductionRule }[]>();
const DEFAULTS = new WeakMap<object, Record<string, string>>();

/** Adds a rule the variable must meet in production mode. */
export function InProduction(rule: ProductionRule): PropertyDecorator {
  return (target, property) => {
    const rules = RULES.get(target.constructor) ?? [];
    rules.push({ property: String(property), rule });
    RULES.set(target.constructor, rules);
  };
}

/** The variable's default in production mode (an environment value, as a string). */
export function ProductionDefault(value: string): PropertyDecorator {
  return (target, property) => {
    DEFAULTS.set(target.constructor, {
      ...DEFAULTS.get(target.constructor),
      [String(property)]: value,
    });
  };
}

export function productionRulesOf(
  piece: object,
): readonly { property: string; rule: ProductionRule }[] {
  return RULES.get(piece) ?? [];
}

export function productionDefaultsOf(piece: object): Readonly<Record<string, string>> {
  return DEFAULTS.get(piece) ?? {};
}

/** How to make a secret that passes: said in every refusal of one. */
export const GENERATE_SECRET = 'generate one with `openssl rand -hex 32`';

/**
 * Values shipped in this repository, now or before, as defaults or examples
 * (the old pepper default, the old compose defaults, the old Secret example,
 * the fault-injection tool's fixed pepper) and MinIO's own default: whoever
 * reads the repository knows them.
 */
const KNOWN_VALUES = new Set(
  [
    'genhub-default-pepper-change-me',
    'genhub-dev-admin-token-change-me',
    'genhub-dev-pepper-change-me',
    'genhub-dev-minio-secret',
    'genhub-dev-password',
    'CHANGE-ME-at-least-16-characters',
    'fault-injection-pepper-0123456789',
    'minioadmin',
  ].map((v) => v.toLowerCase()),
);

/**
 * Words that mark a placeholder or a value a person typed. A generated secret
 * (hex, base64, a cloud provider's key) contains none of them but by a
 * one-in-millions chance.
 */
const PLACEHOLDER_WORDS = [
  'changeme',
  'change-me',
  'change_me',
  'example',
  'placeholder',
  'minioadmin',
  'secret',
  'password',
  'pepper',
  'default',
  'replace',
  'insecure',
];

/** A generated secret of 32 characters or more has many more distinct characters than this. */
const MIN_DISTINCT_CHARACTERS = 8;

/** True when `value` is a default or example anyone can read, or an obvious placeholder. */
export function isKnownSecret(value: string): boolean {
  const lower = value.toLowerCase();
  return (
    KNOWN_VALUES.has(lower) ||
    PLACEHOLDER_WORDS.some((word) => lower.includes(word)) ||
    new Set(lower).size < MIN_DISTINCT_CHARACTERS
  );
}

export interface SecretRule {
  /** The shortest value accepted in production. */
  minLength: number;
  /** Whether the variable must be set in production (default: yes). */
  required?: (config: object) => boolean;
  /** How to get a good value; default: {@link GENERATE_SECRET}. */
  hint?: string;
  /** Other secrets it must not equal (one secret, one purpose). */
  distinctFrom?: readonly string[];
}

/**
 * A secret in production: set (unless `required` says otherwise), not a known
 * value or placeholder, at least `minLength` characters, and different from
 * the `distinctFrom` secrets. The reason never shows the value.
 */
export function secret(options: SecretRule): ProductionRule {
  const hint = options.hint ?? GENERATE_SECRET;
  return (value, config, env) => {
    if (value === undefined || value === null || value === '') {
      const required = options.required?.(config) ?? true;
      return required
        ? `is required in production (${PRODUCTION_MODE}): ${hint} (not set)`
        : undefined;
    }
    const text = String(value);
    if (isKnownSecret(text))
      return `is a published example or placeholder, refused in production (${PRODUCTION_MODE}): ${hint}`;
    if (text.length < options.minLength)
      return `must be at least ${options.minLength} characters in production (${PRODUCTION_MODE}): ${hint}`;
    const same = (options.distinctFrom ?? []).find((other) => env[other] === text);
    if (same)
      return `must differ from ${same} in production (${PRODUCTION_MODE}): one secret per purpose; ${hint}`;
    return undefined;
  };
}
