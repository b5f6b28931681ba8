// Validates objects against the Kubernetes OpenAPI schemas shipped by the
// `kubernetes-models` packages (and KEDA's CRD schemas), plus a strict pass
// that refuses fields the schema does not define, as `kubectl apply
// --validate=strict` does (a misspelt `livenesProbe` is otherwise ignored).
import { dirname } from 'node:path';
import type { K8sObject } from './kustomize';

type Schema = Record<string, unknown>;
interface Model {
  validate(): void;
}
type ModelClass = new (data: object) => Model;

// kubernetes-models registers each schema by id with its validate package as it
// first validates; capture them (before any model loads) for the strict pass.
const schemas = new Map<string, Schema>();
const validatePackage = require(
  // kubernetes-models' own (nested) copy of the validate package, on purpose.
  // eslint-disable-next-line @nx/enforce-module-boundaries
  require.resolve('@kubernetes-models/validate', {
    paths: [dirname(require.resolve('kubernetes-models/apps/v1/Deployment'))],
  }),
) as { register: (id: string, schema: Schema) => void };
const register = validatePackage.register;
validatePackage.register = (id, schema) => {
  schemas.set(id, schema);
  register(id, schema);
};

const core = (path: string, name: string, id: string) => ({
  load: () => (require(`kubernetes-models/${path}`) as Record<string, ModelClass>)[name],
  id,
});
const keda = (name: string) => ({
  load: () =>
    (require(`@kubernetes-models/keda/keda.sh/v1alpha1/${name}`) as Record<string, ModelClass>)[
      name
    ],
  id: undefined,
});

/** Every apiVersion/kind the manifests may use. Anything else is an error. */
const MODELS: Record<string, { load: () => ModelClass; id?: string }> = {
  'v1/ConfigMap': core('v1/ConfigMap', 'ConfigMap', 'io.k8s.api.core.v1.ConfigMap'),
  'v1/Secret': core('v1/Secret', 'Secret', 'io.k8s.api.core.v1.Secret'),
  'v1/Service': core('v1/Service', 'Service', 'io.k8s.api.core.v1.Service'),
  'apps/v1/Deployment': core('apps/v1/Deployment', 'Deployment', 'io.k8s.api.apps.v1.Deployment'),
  'batch/v1/Job': core('batch/v1/Job', 'Job', 'io.k8s.api.batch.v1.Job'),
  'policy/v1/PodDisruptionBudget': core(
    'policy/v1/PodDisruptionBudget',
    'PodDisruptionBudget',
    'io.k8s.api.policy.v1.PodDisruptionBudget',
  ),
  'autoscaling/v2/HorizontalPodAutoscaler': core(
    'autoscaling/v2/HorizontalPodAutoscaler',
    'HorizontalPodAutoscaler',
    'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler',
  ),
  'keda.sh/v1alpha1/ScaledObject': keda('ScaledObject'),
  'keda.sh/v1alpha1/TriggerAuthentication': keda('TriggerAuthentication'),
};

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function resolveRef(schema: Schema): Schema | undefined {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  return schemas.get(ref.replace(/#$/, ''));
}

/** Fields of `value` that `schema` does not define, as JSON paths. */
function unknownFields(schemaIn: Schema | undefined, value: unknown, path: string): string[] {
  const schema = schemaIn && resolveRef(schemaIn);
  if (!schema || value === null || typeof value !== 'object') return [];
  if (schema['x-kubernetes-preserve-unknown-fields']) return [];
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = (schema[key] as Schema[] | undefined)?.filter((o) => o.type !== 'null');
    if (options?.length) {
      const results = options.map((o) => unknownFields(o, value, path));
      return results.find((r) => r.length === 0) ?? results[0];
    }
  }
  if (Array.isArray(value)) {
    const items = schema.items as Schema | undefined;
    return value.flatMap((v, i) => unknownFields(items, v, `${path}[${i}]`));
  }
  const properties = schema.properties as Record<string, Schema> | undefined;
  const additional = schema.additionalProperties;
  const problems: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (properties && key in properties)
      problems.push(...unknownFields(properties[key], child, at));
    else if (isPlain(additional)) problems.push(...unknownFields(additional, child, at));
    else if (properties && additional !== true) problems.push(`${at} is not a known field`);
  }
  return problems;
}

/**
 * Validates one object: its kind must be known, it must satisfy the schema, and
 * (for built-in kinds) carry no field the schema does not define. Returns the
 * problems found, each prefixed with Kind/name; an empty list means valid.
 */
export function schemaProblems(object: K8sObject): string[] {
  const label = `${object.kind}/${object.metadata?.name}`;
  const model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!model) return [`${label}: unknown apiVersion/kind ${object.apiVersion}/${object.kind}`];
  const Class = model.load();
  try {
    new Class(object).validate();
  } catch (error) {
    return [`${label}: ${(error as Error).message}`];
  }
  if (!model.id) return [];
  const schema = schemas.get(model.id);
  if (!schema) return [`${label}: schema ${model.id} was not registered`];
  return unknownFields(schema, object, '').map((p) => `${label}: ${p.slice(1)}`);
}
