import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** A Kubernetes object as plain data. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [key: string]: unknown };
  [key: string]: unknown;
}

type Plain = Record<string, unknown>;

interface ImageRule {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

/** The kustomization fields this renderer understands; anything else is refused. */
const SUPPORTED = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'patches']);

const isPlain = (v: unknown): v is Plain =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses a (multi-document) YAML file, failing on any YAML error. */
export function readYaml(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((doc) => {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0].message}`);
      return doc.toJS() as unknown;
    })
    .filter((value) => value != null);
}

/** Parses a YAML file of Kubernetes objects. */
export function readObjects(file: string): K8sObject[] {
  const out: K8sObject[] = [];
  for (const value of readYaml(file)) {
    if (!isPlain(value) || typeof value.kind !== 'string' || !isPlain(value.metadata)) {
      throw new Error(`${file}: a document is not a Kubernetes object (kind/metadata missing)`);
    }
    out.push(value as K8sObject);
  }
  return out;
}

/** Kustomize's directive in a patch: `$patch: delete` removes what it names. */
const deletes = (value: unknown) => isPlain(value) && value.$patch === 'delete';

/**
 * Strategic merge, the subset kustomize applies to our patches: maps merge
 * key by key (null deletes), lists of objects with a `name` merge item by item
 * (containers, env, ports, volumes; an item with `$patch: delete` removes its
 * namesake), every other list is replaced.
 */
export function strategicMerge(base: unknown, patch: unknown): unknown {
  if (patch === null) return undefined;
  if (isPlain(base) && isPlain(patch)) {
    const out: Plain = { ...base };
    for (const [key, value] of Object.entries(patch)) {
      const merged = strategicMerge(base[key], value);
      if (merged === undefined) delete out[key];
      else out[key] = merged;
    }
    return out;
  }
  const named = (list: unknown[]) => list.every((i) => isPlain(i) && typeof i.name === 'string');
  if (Array.isArray(base) && Array.isArray(patch) && named(base) && named(patch)) {
    const out = base.flatMap((item) => {
      const match = (patch as Plain[]).find((p) => p.name === (item as Plain).name);
      if (deletes(match)) return [];
      return [match ? strategicMerge(item, match) : item];
    });
    for (const p of patch as Plain[]) {
      if (!deletes(p) && !base.some((item) => (item as Plain).name === p.name)) out.push(p);
    }
    return out;
  }
  return structuredClone(patch);
}

function setImages(value: unknown, rules: ImageRule[]): void {
  if (Array.isArray(value)) return value.forEach((v) => setImages(v, rules));
  if (!isPlain(value)) return;
  for (const key of ['containers', 'initContainers']) {
    const list = value[key];
    if (!Array.isArray(list)) continue;
    for (const container of list as Plain[]) {
      const image = String(container.image ?? '');
      const name = image.replace(/@.*$/, '').replace(/:[^:/]+$/, '');
      const rule = rules.find((r) => r.name === name);
      if (!rule) continue;
      const tag = rule.digest
        ? `@${rule.digest}`
        : rule.newTag
          ? `:${rule.newTag}`
          : image.slice(name.length);
      container.image = `${rule.newName ?? name}${tag}`;
    }
  }
  for (const child of Object.values(value)) setImages(child, rules);
}

/**
 * Renders a kustomization directory as `kubectl kustomize` would for the
 * features used under deploy/: resources (files and directories), namespace,
 * images, and strategic-merge patches that name their target by kind and
 * metadata.name (a patch that is only `$patch: delete` removes its target). Unknown fields and patches that match nothing are errors, so
 * using a feature this renderer does not implement fails the test loudly.
 */
export function renderKustomization(dir: string): K8sObject[] {
  const file = join(dir, 'kustomization.yaml');
  const [k] = readYaml(file) as Plain[];
  for (const key of Object.keys(k)) {
    if (!SUPPORTED.has(key)) throw new Error(`${file}: unsupported kustomization field "${key}"`);
  }
  let objects: K8sObject[] = [];
  for (const entry of (k.resources as string[] | undefined) ?? []) {
    const path = resolve(dir, entry);
    objects.push(...(statSync(path).isDirectory() ? renderKustomization(path) : readObjects(path)));
  }
  for (const p of (k.patches as { path?: string; target?: unknown }[] | undefined) ?? []) {
    if (!p.path || p.target)
      throw new Error(`${file}: only patches with a path and no target are supported`);
    for (const patch of readObjects(resolve(dir, p.path))) {
      const index = objects.findIndex(
        (o) => o.kind === patch.kind && o.metadata.name === patch.metadata.name,
      );
      if (index < 0) {
        throw new Error(`${file}: patch ${patch.kind}/${patch.metadata.name} matches no resource`);
      }
      if (deletes(patch)) objects.splice(index, 1);
      else objects[index] = strategicMerge(objects[index], patch) as K8sObject;
    }
  }
  if (k.images) {
    objects = objects.map((o) => structuredClone(o));
    setImages(objects, k.images as ImageRule[]);
  }
  if (typeof k.namespace === 'string') {
    for (const o of objects) o.metadata.namespace = k.namespace;
  }
  return objects;
}

/** The directories of every overlay under deploy/overlays. */
export function overlayDirs(deployRoot: string): string[] {
  const root = join(deployRoot, 'overlays');
  return readdirSync(root)
    .map((name) => join(root, name))
    .filter((d) => statSync(d).isDirectory());
}

export const deployRoot = resolve(__dirname, '..');
export const workspaceRoot = dirname(deployRoot);
