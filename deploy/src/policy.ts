import { createHash } from 'node:crypto';
import { ConfigError, loadConfig, RedisConfig, SENSITIVE_KEYS } from '@genhub/config';
import { ALL_VARIABLES, APP_PIECES, APPS, variablesOfApp } from './config-vars';
import type { K8sObject } from './kustomize';

/* Typed views of the parts of objects the checks read. */
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Container {
  name: string;
  image?: string;
  command?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  livenessProbe?: { httpGet?: { path?: string } };
  readinessProbe?: { httpGet?: { path?: string } };
  lifecycle?: { preStop?: { exec?: { command?: string[] } } };
}
interface PodSpec {
  containers: Container[];
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean };
}
interface Workload {
  metadata: { name: string };
  spec: {
    selector?: { matchLabels?: Record<string, string> };
    template: { metadata?: { labels?: Record<string, string> }; spec: PodSpec };
  };
}
interface ScaledObjectSpec {
  scaleTargetRef?: { name?: string; kind?: string };
  minReplicaCount?: number;
  maxReplicaCount?: number;
  advanced?: { scalingModifiers?: { formula?: string; target?: string } };
  triggers?: { type: string; name?: string; metadata?: Record<string, string> }[];
}

export const SECRET_NAME = 'genhub-secrets';
export const CONFIG_NAME = 'genhub-config';
const MIGRATE_SCRIPT = 'dist/gateway/apps/gateway/src/cli/migrate.js';
/** Secret keys that exist only for KEDA, not for the apps. */
const KEDA_SECRET_KEYS = new Set([
  'KEDA_REDIS_ADDRESS',
  'KEDA_REDIS_ADDRESSES',
  'KEDA_REDIS_PASSWORD',
]);
/** The KEDA trigger that reads list lengths on each Redis topology. */
const KEDA_TRIGGER = { standalone: 'redis', sentinel: 'redis-sentinel', cluster: 'redis-cluster' };
/** Seconds on top of SHUTDOWN_GRACE_MS (and any preStop sleep) before the kubelet kills. */
const MIN_GRACE_MARGIN_S = 5;
/**
 * Which queue drives which KEDA-scaled app, the concurrency its target derives
 * from, the queue lists its Redis triggers read, and the gauge its Prometheus
 * trigger reads: the task-workers' waiting work sits in the fair stage (a
 * hash no list trigger reads) as well as in the wait list, and the gateway
 * sums both as `genhub_tasks_waiting` (issue 36).
 */
const QUEUE_SCALED: Record<
  string,
  { queue: string; concurrencyVar: string; lists: string[]; gauge?: string }
> = {
  'task-worker': {
    queue: 'tasks',
    concurrencyVar: 'TASK_CONCURRENCY',
    lists: ['active'],
    gauge: 'genhub_tasks_waiting',
  },
  'webhook-dispatcher': {
    queue: 'webhooks',
    concurrencyVar: 'WEBHOOK_CONCURRENCY',
    lists: ['wait', 'active'],
    gauge: 'genhub_webhook_deliveries_due',
  },
};

/**
 * The Redis topology an app container would start with (the ConfigMap, then
 * its own env; a secret stands for itself), or the line it would refuse with.
 */
function redisTopologyOf(
  data: Record<string, string>,
  container: Container,
): { kind: keyof typeof KEDA_TRIGGER } | { refusal: string } {
  const env: Record<string, string> = { ...data };
  for (const e of container.env ?? [])
    env[e.name] =
      e.value ?? (e.name === 'REDIS_URL' ? 'redis://from-the-secret' : 'from-the-secret');
  try {
    return { kind: loadConfig(RedisConfig, env).topology.kind };
  } catch (error) {
    if (error instanceof ConfigError) return { refusal: error.message };
    throw error;
  }
}

const matches = (selector: Record<string, string> = {}, labels: Record<string, string> = {}) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

const find = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);

/**
 * The first refusal an app container would start with, besides its Redis
 * settings (redisTopologyOf): the ConfigMap, then its own env, in production
 * mode as the image runs it; a secret stands for itself as a generated value
 * (a connection string where one is due), since the Secret is made out of band.
 */
function startupRefusal(
  app: (typeof APPS)[number],
  data: Record<string, string>,
  container: Container,
): string | undefined {
  const env: Record<string, string> = { NODE_ENV: 'production', ...data };
  for (const e of container.env ?? []) {
    const key = e.valueFrom?.secretKeyRef?.key;
    env[e.name] =
      e.value ??
      (e.name === 'DATABASE_URL'
        ? 'postgres://from-the-secret/genhub'
        : e.name === 'REDIS_URL'
          ? 'redis://from-the-secret'
          : createHash('sha256')
              .update(key ?? e.name)
              .digest('hex'));
  }
  try {
    for (const piece of APP_PIECES[app]) if (piece !== RedisConfig) loadConfig(piece, env);
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
}

/**
 * What genhub requires of a rendered overlay beyond the schemas: every app
 * Deployment has /health liveness and /ready readiness probes, CPU and memory
 * requests AND limits, a grace period covering SHUTDOWN_GRACE_MS, a
 * PodDisruptionBudget selecting it, secrets only by reference and only known
 * config variables; the gateway has a CPU HPA; task-worker and
 * webhook-dispatcher have KEDA ScaledObjects on their queue lists (the
 * task-workers' waiting work on the gateway's gauge, through Prometheus); a migration
 * Job runs the gateway image's migrate command; the ConfigMap says
 * NODE_ENV=production and each app would start in production mode with it
 * (no simulator, the gateway's secrets and METRICS_TOKEN from the Secret).
 * Returns the problems found.
 */
export function policyProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const config = find(objects, 'ConfigMap', CONFIG_NAME) as
    (K8sObject & { data?: Record<string, string> }) | undefined;
  const data = config?.data ?? {};
  if (!config) problems.push(`ConfigMap/${CONFIG_NAME} is missing`);
  for (const key of Object.keys(data)) {
    if (!ALL_VARIABLES.has(key))
      problems.push(`ConfigMap/${CONFIG_NAME}: ${key} is not a configuration variable`);
    if (SENSITIVE_KEYS.has(key))
      problems.push(`ConfigMap/${CONFIG_NAME}: ${key} is a secret; it belongs in the Secret`);
  }
  if (!data.S3_ENDPOINT)
    problems.push(`ConfigMap/${CONFIG_NAME}: S3_ENDPOINT must be set (replicas share no disk)`);
  if (data.NODE_ENV !== 'production')
    problems.push(
      `ConfigMap/${CONFIG_NAME}: NODE_ENV must be production (production mode, decision 0127)`,
    );
  const graceMs = Number(data.SHUTDOWN_GRACE_MS ?? 25_000);
  const prefix = data.QUEUE_PREFIX ?? 'genhub';

  if (objects.some((o) => o.kind === 'Secret')) {
    problems.push('a Secret is rendered: secrets are created out of band, never kept in manifests');
  }

  for (const o of objects) {
    const pod =
      (o.kind === 'Deployment' || o.kind === 'Job') &&
      (o as unknown as Workload).spec.template.spec;
    if (!pod) continue;
    for (const c of pod.containers) {
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        if (SENSITIVE_KEYS.has(e.name) && !ref)
          problems.push(`${o.kind}/${o.metadata.name}: ${e.name} must come from a secretKeyRef`);
        if (ref && ref.name !== SECRET_NAME)
          problems.push(
            `${o.kind}/${o.metadata.name}: ${e.name} refers to Secret ${ref.name}, not ${SECRET_NAME}`,
          );
      }
      for (const from of c.envFrom ?? []) {
        if (from.secretRef)
          problems.push(
            `${o.kind}/${o.metadata.name}: envFrom a whole Secret; reference each key an app needs`,
          );
        if (from.configMapRef && from.configMapRef.name !== CONFIG_NAME)
          problems.push(
            `${o.kind}/${o.metadata.name}: envFrom unknown ConfigMap ${from.configMapRef.name}`,
          );
      }
    }
  }

  for (const app of APPS) {
    const name = `genhub-${app}`;
    const deployment = find(objects, 'Deployment', name) as unknown as Workload | undefined;
    if (!deployment) {
      problems.push(`Deployment/${name} is missing`);
      continue;
    }
    const label = `Deployment/${name}`;
    const pod = deployment.spec.template.spec;
    const labels = deployment.spec.template.metadata?.labels;
    if (!matches(deployment.spec.selector?.matchLabels, labels))
      problems.push(`${label}: selector does not match its pod labels`);
    if (!pod.securityContext?.runAsNonRoot) problems.push(`${label}: pods must set runAsNonRoot`);
    const container = pod.containers.find((c) => c.name === app);
    if (!container) {
      problems.push(`${label}: no container named ${app}`);
      continue;
    }
    if (!container.image?.includes(`genhub/${app}`))
      problems.push(`${label}: image ${container.image} is not the ${app} image`);
    if (container.livenessProbe?.httpGet?.path !== '/health')
      problems.push(`${label}: livenessProbe must GET /health`);
    if (container.readinessProbe?.httpGet?.path !== '/ready')
      problems.push(`${label}: readinessProbe must GET /ready`);
    for (const kind of ['requests', 'limits'] as const) {
      for (const resource of ['cpu', 'memory']) {
        if (container.resources?.[kind]?.[resource] === undefined)
          problems.push(`${label}: resources.${kind}.${resource} is missing`);
      }
    }
    const preStop = container.lifecycle?.preStop?.exec?.command;
    const preStopS = preStop?.[0] === 'sleep' ? Number(preStop[1]) : 0;
    const neededS = Math.ceil(graceMs / 1000) + preStopS + MIN_GRACE_MARGIN_S;
    if ((pod.terminationGracePeriodSeconds ?? 30) < neededS) {
      problems.push(
        `${label}: terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds ?? 30} < ${neededS} (SHUTDOWN_GRACE_MS ${graceMs} + preStop ${preStopS} s + ${MIN_GRACE_MARGIN_S} s)`,
      );
    }
    const known = variablesOfApp(app);
    for (const e of container.env ?? []) {
      if (!known.has(e.name))
        problems.push(`${label}: ${e.name} is not a configuration variable of ${app}`);
    }
    if (!(container.envFrom ?? []).some((f) => f.configMapRef?.name === CONFIG_NAME))
      problems.push(`${label}: does not load ConfigMap ${CONFIG_NAME}`);
    // The app's own refusals of its Redis settings (one topology, a hash tag on a cluster).
    const redis = redisTopologyOf(data, container);
    if ('refusal' in redis) problems.push(`${label}: ${redis.refusal}`);
    // Every other refusal at start, in production mode (the simulator, a published secret…).
    const refusal = startupRefusal(app, data, container);
    if (refusal) problems.push(`${label}: ${refusal}`);
    for (const needed of [
      'DATABASE_URL',
      // Standalone: the URL (with its password) is a secret; Sentinel and Cluster name nodes.
      ...('kind' in redis && redis.kind === 'standalone' ? ['REDIS_URL'] : []),
      ...(app === 'gateway' ? ['ADMIN_TOKEN', 'API_KEY_PEPPER', 'METRICS_TOKEN'] : []),
    ]) {
      if (
        !(container.env ?? []).some(
          (e) => e.name === needed && e.valueFrom?.secretKeyRef?.key === needed,
        )
      )
        problems.push(`${label}: ${needed} is not taken from the Secret`);
    }
    const pdbs = objects.filter(
      (o) =>
        o.kind === 'PodDisruptionBudget' &&
        matches((o.spec as Workload['spec']).selector?.matchLabels, labels),
    );
    if (pdbs.length !== 1)
      problems.push(`${label}: ${pdbs.length} PodDisruptionBudgets select it (want 1)`);

    const hpa = objects.find(
      (o) =>
        o.kind === 'HorizontalPodAutoscaler' &&
        (o.spec as { scaleTargetRef?: { name?: string } }).scaleTargetRef?.name === name,
    );
    const scaled = objects.find(
      (o) =>
        o.kind === 'ScaledObject' && (o.spec as ScaledObjectSpec).scaleTargetRef?.name === name,
    );
    if (app === 'gateway') {
      const metrics =
        (hpa?.spec as { metrics?: { resource?: { name?: string } }[] } | undefined)?.metrics ?? [];
      if (!metrics.some((m) => m.resource?.name === 'cpu'))
        problems.push(`${label}: needs an HPA on CPU`);
    }
    const queueScaled = QUEUE_SCALED[app];
    if (queueScaled) {
      const spec = scaled?.spec as ScaledObjectSpec | undefined;
      if (!spec) {
        problems.push(`${label}: needs a KEDA ScaledObject`);
      } else {
        if ('kind' in redis)
          for (const t of spec.triggers ?? [])
            if (t.type !== 'prometheus' && t.type !== KEDA_TRIGGER[redis.kind])
              problems.push(
                `ScaledObject/${scaled?.metadata.name}: trigger ${t.name} is ${t.type}, not ${KEDA_TRIGGER[redis.kind]} (Redis ${redis.kind})`,
              );
        const lists = (spec.triggers ?? []).map((t) => t.metadata?.listName);
        for (const list of queueScaled.lists) {
          const expected = `${prefix}:${queueScaled.queue}:${list}`;
          if (!lists.includes(expected))
            problems.push(`ScaledObject/${scaled?.metadata.name}: no trigger on ${expected}`);
        }
        const gauge = queueScaled.gauge;
        if (gauge) {
          const reads = (spec.triggers ?? []).find(
            (t) =>
              t.type === 'prometheus' &&
              t.metadata?.serverAddress &&
              new RegExp(`\\b${gauge}\\b`).test(t.metadata?.query ?? ''),
          );
          if (!reads)
            problems.push(
              `ScaledObject/${scaled?.metadata.name}: no prometheus trigger on ${gauge}`,
            );
        }
        const concurrency = Number(data[queueScaled.concurrencyVar]);
        const target = Number(spec.advanced?.scalingModifiers?.target);
        if (!(target > 0 && target <= concurrency))
          problems.push(
            `ScaledObject/${scaled?.metadata.name}: target ${target} must be within 1..${queueScaled.concurrencyVar} (${concurrency})`,
          );
        if (!(
          (spec.minReplicaCount ?? 0) >= 1 &&
          (spec.maxReplicaCount ?? 0) >= (spec.minReplicaCount ?? 0)
        ))
          problems.push(
            `ScaledObject/${scaled?.metadata.name}: needs 1 <= minReplicaCount <= maxReplicaCount`,
          );
      }
    }
    if ((hpa || scaled) && (deployment.spec as { replicas?: number }).replicas !== undefined) {
      problems.push(`${label}: sets replicas although an autoscaler owns them`);
    }
  }
  for (const o of objects) {
    const target =
      o.kind === 'HorizontalPodAutoscaler' || o.kind === 'ScaledObject'
        ? (o.spec as ScaledObjectSpec).scaleTargetRef?.name
        : undefined;
    if (target !== undefined && !find(objects, 'Deployment', target))
      problems.push(
        `${o.kind}/${o.metadata.name}: scale target Deployment/${target} does not exist`,
      );
    const auth =
      o.kind === 'ScaledObject'
        ? ((o.spec as { triggers?: { authenticationRef?: { name: string } }[] }).triggers ?? [])
        : [];
    for (const t of auth) {
      if (t.authenticationRef && !find(objects, 'TriggerAuthentication', t.authenticationRef.name))
        problems.push(
          `${o.kind}/${o.metadata.name}: TriggerAuthentication ${t.authenticationRef.name} does not exist`,
        );
    }
    if (o.kind === 'TriggerAuthentication') {
      for (const ref of (o.spec as { secretTargetRef?: { name: string; key: string }[] })
        .secretTargetRef ?? []) {
        if (ref.name !== SECRET_NAME || !KEDA_SECRET_KEYS.has(ref.key))
          problems.push(
            `${o.kind}/${o.metadata.name}: unexpected secret reference ${ref.name}/${ref.key}`,
          );
      }
    }
    if (o.kind === 'Service') {
      const selector = (o.spec as { selector?: Record<string, string> }).selector;
      const selected = objects.some(
        (d) =>
          d.kind === 'Deployment' &&
          matches(selector, (d as unknown as Workload).spec.template.metadata?.labels),
      );
      if (!selected) problems.push(`Service/${o.metadata.name}: selects no Deployment`);
    }
  }

  const job = objects.find(
    (o) =>
      o.kind === 'Job' &&
      (o as unknown as Workload).spec.template.spec.containers.some((c) =>
        c.command?.includes(MIGRATE_SCRIPT),
      ),
  );
  if (!job) problems.push(`no migration Job runs ${MIGRATE_SCRIPT}`);
  else {
    const c = (job as unknown as Workload).spec.template.spec.containers[0];
    if (!c.image?.includes('genhub/gateway'))
      problems.push(`Job/${job.metadata.name}: must run the gateway image`);
    if (!c.resources?.limits)
      problems.push(`Job/${job.metadata.name}: resources.limits is missing`);
  }
  return problems;
}
