// Tests poke at rendered YAML as loose data.
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-non-null-assertion */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ConfigError, loadConfig } from '@genhub/config';
import { APP_PIECES } from './config-vars';
import { schemaProblems } from './k8s-schema';
import {
  deployRoot,
  K8sObject,
  overlayDirs,
  readObjects,
  readYaml,
  renderKustomization,
} from './kustomize';
import { policyProblems } from './policy';

const overlays = overlayDirs(deployRoot);
const rendered = new Map(overlays.map((dir) => [basename(dir), renderKustomization(dir)]));
const production = () => structuredClone(rendered.get('production')!);
const onCluster = () => structuredClone(rendered.get('redis-cluster')!);
const envOf = (objects: K8sObject[], app: string) =>
  byKindName(objects, 'Deployment', `genhub-${app}`).spec.template.spec.containers[0].env as {
    name: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
  }[];
const byKindName = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name) as K8sObject &
    Record<string, any>;

describe('rendered overlays', () => {
  it('finds the dev, production and redis-cluster overlays', () => {
    expect([...rendered.keys()].sort()).toEqual(['dev', 'production', 'redis-cluster']);
  });

  describe.each([...rendered.keys()])('%s', (name) => {
    const objects = rendered.get(name)!;

    it('renders every object of the base once, in one namespace', () => {
      const ids = objects.map((o) => `${o.kind}/${o.metadata.name}`);
      expect(new Set(ids).size).toBe(ids.length);
      expect(objects).toHaveLength(18);
      expect(new Set(objects.map((o) => o.metadata.namespace)).size).toBe(1);
    });

    it('validates every object against the Kubernetes and KEDA schemas', () => {
      expect(objects.flatMap(schemaProblems)).toEqual([]);
    });

    it('meets the deployment policy (probes, limits, PDBs, autoscalers, secrets, migration)', () => {
      expect(policyProblems(objects)).toEqual([]);
    });
  });

  it('production pins a registry image with a tag for every container', () => {
    const images = production()
      .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
      .flatMap((o: any) => o.spec.template.spec.containers.map((c: { image: string }) => c.image));
    expect(images).toHaveLength(5);
    for (const image of images)
      expect(image).toMatch(/^registry\.example\.com\/genhub\/[a-z-]+:0\.1\.0$/);
  });

  it('overlay patches land (production raises the gateway and autoscaling floors)', () => {
    const objects = production();
    const gateway = byKindName(objects, 'Deployment', 'genhub-gateway');
    const container = gateway.spec.template.spec.containers[0];
    expect(container.resources.limits).toEqual({ cpu: '2', memory: '768Mi' });
    // the strategic merge kept the rest of the container
    expect(container.readinessProbe.httpGet.path).toBe('/ready');
    expect(container.env.length).toBeGreaterThan(5);
    expect(byKindName(objects, 'HorizontalPodAutoscaler', 'genhub-gateway').spec.minReplicas).toBe(
      3,
    );
    expect(byKindName(objects, 'ScaledObject', 'genhub-task-worker').spec.maxReplicaCount).toBe(50);
    expect(byKindName(objects, 'Deployment', 'genhub-billing').spec.replicas).toBe(2);
  });

  it('redis-cluster: the apps reach the cluster by nodes, KEDA reads the hash-tagged lists on it', () => {
    const objects = onCluster();
    const config = byKindName(objects, 'ConfigMap', 'genhub-config').data;
    expect(config.QUEUE_PREFIX).toBe('{genhub}');
    expect(config.REDIS_CLUSTER_NODES.split(',')).toHaveLength(3);
    for (const app of ['gateway', 'task-worker', 'webhook-dispatcher', 'billing']) {
      const env = envOf(objects, app);
      expect(env.map((e) => e.name)).not.toContain('REDIS_URL');
      expect(env.find((e) => e.name === 'REDIS_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({
        name: 'genhub-secrets',
        key: 'REDIS_PASSWORD',
        optional: true,
      });
      // the rest of the production container is kept
      expect(env.map((e) => e.name)).toContain('DATABASE_URL');
    }
    const triggers = (name: string) =>
      byKindName(objects, 'ScaledObject', name).spec.triggers.map(
        (t: {
          type: string;
          metadata: { listName?: string; query?: string };
          authenticationRef?: { name: string };
        }) =>
          [t.type, t.metadata.listName ?? t.metadata.query, t.authenticationRef?.name ?? '-'].join(
            ' ',
          ),
      );
    // The waiting work (fair stage + wait list) is the gateway's gauge, whatever the topology.
    expect(triggers('genhub-task-worker')).toEqual([
      'prometheus max(genhub_tasks_waiting{service="gateway"}) -',
      'redis-cluster {genhub}:tasks:active genhub-redis-cluster',
    ]);
    // Task ends are claimed from PostgreSQL (decision 0141): the dispatcher's gauge counts them.
    expect(triggers('genhub-webhook-dispatcher')).toEqual([
      'prometheus sum(max by (state) (genhub_webhook_deliveries_due{service="webhook-dispatcher"})) -',
      'redis-cluster {genhub}:webhooks:wait genhub-redis-cluster',
      'redis-cluster {genhub}:webhooks:active genhub-redis-cluster',
    ]);
    // production's floors survive, the base's single-node TriggerAuthentication does not
    expect(byKindName(objects, 'ScaledObject', 'genhub-task-worker').spec.maxReplicaCount).toBe(50);
    expect(
      objects.filter((o) => o.kind === 'TriggerAuthentication').map((o) => o.metadata.name),
    ).toEqual(['genhub-redis-cluster']);
  });

  it('keeps the example Secret out of every kustomization, and it carries only placeholders', () => {
    const kustomizations = [join(deployRoot, 'base'), ...overlays].map((d) =>
      join(d, 'kustomization.yaml'),
    );
    for (const file of kustomizations) {
      const k = readYaml(file)[0] as { resources?: string[]; patches?: { path: string }[] };
      const referenced = [...(k.resources ?? []), ...(k.patches ?? []).map((p) => p.path)];
      expect(referenced.filter((r) => r.includes('secret'))).toEqual([]);
    }
    const [secret] = readObjects(join(deployRoot, 'secret.example.yaml')) as any[];
    expect(schemaProblems(secret)).toEqual([]);
    for (const value of Object.values<string>(secret.stringData))
      expect(value).toMatch(/CHANGE-ME|example/);
    // every key the manifests reference exists in the example
    const referencedKeys = new Set<string>();
    JSON.stringify([production(), onCluster()], (key, value) => {
      if (value && typeof value === 'object' && value.name === 'genhub-secrets' && value.key)
        referencedKeys.add(value.key);
      return value;
    });
    expect(referencedKeys.size).toBeGreaterThan(5);
    for (const key of referencedKeys) expect(Object.keys(secret.stringData)).toContain(key);
  });

  it('runs every app in production mode, and the production overlay says the simulator is off', () => {
    for (const [name, objects] of rendered) {
      const data = byKindName(objects, 'ConfigMap', 'genhub-config').data;
      expect([name, data.NODE_ENV, data.ENABLE_SIMULATOR]).toEqual([name, 'production', 'false']);
    }
    const own = readYaml(join(deployRoot, 'overlays/production/config.yaml'))[0] as any;
    expect(own.data.ENABLE_SIMULATOR).toBe('false');
  });

  it("the example Secret's secrets are refused by the apps, and it says how to generate each", () => {
    const [secret] = readObjects(join(deployRoot, 'secret.example.yaml')) as any[];
    const data = byKindName(production(), 'ConfigMap', 'genhub-config').data;
    const generated = (key: string) => createHash('sha256').update(key).digest('hex');
    const refusal = (env: Record<string, string>) => {
      try {
        for (const piece of APP_PIECES.gateway) loadConfig(piece, env);
        return undefined;
      } catch (error) {
        if (error instanceof ConfigError) return error.message;
        throw error;
      }
    };
    const keys = ['ADMIN_TOKEN', 'API_KEY_PEPPER', 'METRICS_TOKEN', 'S3_SECRET_ACCESS_KEY'];
    const base = {
      ...data,
      NODE_ENV: 'production',
      PORT: '3000',
      DATABASE_URL: 'postgres://from-the-secret/genhub',
      REDIS_URL: 'redis://from-the-secret',
      S3_ACCESS_KEY_ID: 'AKIAEXAMPLEKEYID',
      ...Object.fromEntries(keys.map((key) => [key, generated(key)])),
    };
    expect(refusal(base)).toBeUndefined();
    for (const key of keys)
      expect(refusal({ ...base, [key]: secret.stringData[key] })).toMatch(
        new RegExp(`^Invalid configuration: ${key} is a published example or placeholder`),
      );
    const text = readFileSync(join(deployRoot, 'secret.example.yaml'), 'utf8');
    for (const key of ['ADMIN_TOKEN', 'API_KEY_PEPPER', 'METRICS_TOKEN'])
      expect(text).toContain(`--from-literal=${key}="$(openssl rand -hex 32)"`);
  });

  it('lists only files that exist in the base', () => {
    const base = join(deployRoot, 'base');
    const k = readYaml(join(base, 'kustomization.yaml'))[0] as { resources: string[] };
    const yamls = readdirSync(base).filter(
      (f) => f.endsWith('.yaml') && f !== 'kustomization.yaml',
    );
    expect([...k.resources].sort()).toEqual(yamls.sort());
    for (const r of k.resources) expect(existsSync(join(base, r))).toBe(true);
  });
});

describe('the validation fails on broken manifests', () => {
  it('a value of the wrong type fails the schema', () => {
    const objects = production();
    const gateway = byKindName(objects, 'HorizontalPodAutoscaler', 'genhub-gateway');
    gateway.spec.maxReplicas = 'ten';
    expect(schemaProblems(gateway)).toEqual([
      expect.stringContaining('maxReplicas must be integer'),
    ]);
  });

  it('a missing required field fails the schema', () => {
    const pdb = byKindName(production(), 'PodDisruptionBudget', 'genhub-gateway');
    const worker = byKindName(production(), 'Deployment', 'genhub-task-worker');
    delete worker.spec.template.spec.containers[0].name;
    expect(schemaProblems(worker)).toEqual([expect.stringContaining("required property 'name'")]);
    pdb.spec.maxUnavailable = { pods: 1 };
    expect(schemaProblems(pdb).join()).toContain('maxUnavailable');
  });

  it('a misspelt field (unknown to the schema) fails the strict pass', () => {
    const worker = byKindName(production(), 'Deployment', 'genhub-task-worker');
    const c = worker.spec.template.spec.containers[0];
    c.livenesProbe = c.livenessProbe;
    delete c.livenessProbe;
    expect(schemaProblems(worker)).toEqual([
      'Deployment/genhub-task-worker: spec.template.spec.containers[0].livenesProbe is not a known field',
    ]);
  });

  it('a broken KEDA ScaledObject fails its CRD schema', () => {
    const scaled = byKindName(production(), 'ScaledObject', 'genhub-task-worker');
    delete scaled.spec.scaleTargetRef;
    expect(schemaProblems(scaled).join()).toContain('scaleTargetRef');
  });

  it('an unknown kind is refused', () => {
    expect(
      schemaProblems({ apiVersion: 'apps/v1', kind: 'Deployment2', metadata: { name: 'x' } }),
    ).toEqual(['Deployment2/x: unknown apiVersion/kind apps/v1/Deployment2']);
  });

  it('missing probes, limits, a short grace period and a missing PDB fail the policy', () => {
    const objects = production().filter(
      (o) => !(o.kind === 'PodDisruptionBudget' && o.metadata.name === 'genhub-billing'),
    );
    const billing = byKindName(objects, 'Deployment', 'genhub-billing');
    const c = billing.spec.template.spec.containers[0];
    delete c.readinessProbe;
    c.livenessProbe.httpGet.path = '/ready';
    delete c.resources.limits.memory;
    billing.spec.template.spec.terminationGracePeriodSeconds = 20;
    expect(policyProblems(objects)).toEqual([
      'Deployment/genhub-billing: livenessProbe must GET /health',
      'Deployment/genhub-billing: readinessProbe must GET /ready',
      'Deployment/genhub-billing: resources.limits.memory is missing',
      'Deployment/genhub-billing: terminationGracePeriodSeconds 20 < 30 (SHUTDOWN_GRACE_MS 25000 + preStop 0 s + 5 s)',
      'Deployment/genhub-billing: 0 PodDisruptionBudgets select it (want 1)',
    ]);
  });

  it('a literal secret, an unknown variable, a stray autoscaler target and a missing KEDA list fail the policy', () => {
    const objects = production();
    const gateway = byKindName(objects, 'Deployment', 'genhub-gateway');
    const env = gateway.spec.template.spec.containers[0].env;
    env.find((e: { name: string }) => e.name === 'ADMIN_TOKEN').valueFrom = undefined;
    env.find((e: { name: string }) => e.name === 'ADMIN_TOKEN').value = 'hunter2hunter2hunter2';
    env.push({ name: 'ADMIN_TOKENS', value: 'x' });
    byKindName(objects, 'HorizontalPodAutoscaler', 'genhub-gateway').spec.scaleTargetRef.name =
      'genhub-gw';
    byKindName(objects, 'ConfigMap', 'genhub-config').data.QUEUE_PREFIX = 'other';
    expect(policyProblems(objects)).toEqual(
      expect.arrayContaining([
        'Deployment/genhub-gateway: ADMIN_TOKEN must come from a secretKeyRef',
        'Deployment/genhub-gateway: ADMIN_TOKENS is not a configuration variable of gateway',
        'Deployment/genhub-gateway: ADMIN_TOKEN is not taken from the Secret',
        'Deployment/genhub-gateway: needs an HPA on CPU',
        'HorizontalPodAutoscaler/genhub-gateway: scale target Deployment/genhub-gw does not exist',
        'ScaledObject/genhub-task-worker: no trigger on other:tasks:active',
        'ScaledObject/genhub-webhook-dispatcher: no trigger on other:webhooks:active',
      ]),
    );
  });

  it('a task-worker ScaledObject that does not count the fair stage fails the policy', () => {
    // The wait list alone misses every task waiting its turn in the fair stage (issue 36).
    const objects = production();
    const scaled = byKindName(objects, 'ScaledObject', 'genhub-task-worker');
    scaled.spec.triggers[0] = {
      type: 'redis',
      name: 'wait',
      metadata: { listName: 'genhub:tasks:wait', listLength: '40' },
      authenticationRef: { name: 'genhub-redis' },
    };
    expect(policyProblems(objects)).toEqual([
      'ScaledObject/genhub-task-worker: no prometheus trigger on genhub_tasks_waiting',
    ]);
    scaled.spec.triggers[0] = {
      type: 'prometheus',
      name: 'wait',
      metadata: {
        serverAddress: 'http://p:9090',
        query: 'max(genhub_queue_jobs)',
        threshold: '40',
      },
    };
    expect(policyProblems(objects)).toEqual([
      'ScaledObject/genhub-task-worker: no prometheus trigger on genhub_tasks_waiting',
    ]);
  });

  it('a webhook-dispatcher ScaledObject that does not count the due deliveries fails the policy', () => {
    // The queue lists alone miss every task end, claimed from PostgreSQL (decision 0141).
    const objects = production();
    const scaled = byKindName(objects, 'ScaledObject', 'genhub-webhook-dispatcher');
    scaled.spec.triggers = scaled.spec.triggers.filter(
      (t: { type: string }) => t.type !== 'prometheus',
    );
    expect(policyProblems(objects)).toEqual([
      'ScaledObject/genhub-webhook-dispatcher: no prometheus trigger on genhub_webhook_deliveries_due',
    ]);
  });

  it('Redis settings the apps would refuse, or a KEDA trigger of another topology, fail the policy', () => {
    const unTagged = onCluster();
    byKindName(unTagged, 'ConfigMap', 'genhub-config').data.QUEUE_PREFIX = 'genhub';
    expect(policyProblems(unTagged)).toContain(
      'Deployment/genhub-billing: Invalid configuration: QUEUE_PREFIX must be a hash tag such as {genhub} with REDIS_CLUSTER_NODES (each queue\'s keys must share one cluster slot) (got "genhub")',
    );
    const both = onCluster();
    envOf(both, 'gateway').push({
      name: 'REDIS_URL',
      valueFrom: { secretKeyRef: { name: 'genhub-secrets', key: 'REDIS_URL' } },
    });
    byKindName(both, 'ScaledObject', 'genhub-task-worker').spec.triggers[1].type = 'redis';
    expect(policyProblems(both)).toEqual([
      'Deployment/genhub-gateway: Invalid configuration: REDIS_URL cannot be combined with REDIS_CLUSTER_NODES: set one Redis topology',
      'ScaledObject/genhub-task-worker: trigger active is redis, not redis-cluster (Redis cluster)',
    ]);
    const noUrl = production();
    const env = envOf(noUrl, 'task-worker');
    env.splice(
      env.findIndex((e) => e.name === 'REDIS_URL'),
      1,
    );
    expect(policyProblems(noUrl)).toEqual([
      'Deployment/genhub-task-worker: REDIS_URL is not taken from the Secret',
    ]);
  });

  it('the simulator, development mode or a gateway without its metrics token fail the policy', () => {
    const objects = production();
    const data = byKindName(objects, 'ConfigMap', 'genhub-config').data;
    data.ENABLE_SIMULATOR = 'true';
    expect(policyProblems(objects)).toEqual([
      'Deployment/genhub-gateway: Invalid configuration: ENABLE_SIMULATOR must be false in production (NODE_ENV=production): the simulator lets any account hold worker slots and choose refunded failures (got "true")',
      'Deployment/genhub-task-worker: Invalid configuration: ENABLE_SIMULATOR must be false in production (NODE_ENV=production): the simulator lets any account hold worker slots and choose refunded failures (got "true")',
    ]);
    delete data.NODE_ENV;
    expect(policyProblems(objects)).toContain(
      'ConfigMap/genhub-config: NODE_ENV must be production (production mode, decision 0127)',
    );
    const tokenless = production();
    const env = envOf(tokenless, 'gateway');
    env.splice(
      env.findIndex((e) => e.name === 'METRICS_TOKEN'),
      1,
    );
    expect(policyProblems(tokenless)).toEqual([
      'Deployment/genhub-gateway: Invalid configuration: METRICS_TOKEN is required in production (NODE_ENV=production): generate one with `openssl rand -hex 32` (not set)',
      'Deployment/genhub-gateway: METRICS_TOKEN is not taken from the Secret',
    ]);
  });

  it('a Secret in the rendered output and a missing migration Job fail the policy', () => {
    const objects = production().filter((o) => o.kind !== 'Job');
    objects.push(...readObjects(join(deployRoot, 'secret.example.yaml')));
    expect(policyProblems(objects)).toEqual([
      'a Secret is rendered: secrets are created out of band, never kept in manifests',
      'no migration Job runs dist/gateway/apps/gateway/src/cli/migrate.js',
    ]);
  });
});
