import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import jsonPatch, { type Operation } from 'fast-json-patch';
import { parseAllDocuments } from 'yaml';

/**
 * Renders a kustomization the way `kubectl kustomize` does, for the subset of kustomize that
 * deploy/k8s uses: resources (files and directories), components, namespace, images, replicas and
 * inline JSON 6902 patches targeted by kind and name. Anything else in a kustomization.yaml is an
 * error here, so a manifest can never silently use a feature this renderer would ignore.
 *
 * Why not kustomize itself: there is no maintained JavaScript kustomize, and the kustomize binary
 * (Go; kubectl's built-in copy) is not in Debian's archive or the npm registry, so CI could not
 * install it. Its output for these overlays was compared with this one's when the files were
 * written (docs/kubernetes.md says how to repeat that where kubectl is installed).
 */

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
}

interface PatchEntry {
  target: { kind: string; name: string };
  patch: string;
}

interface Kustomization {
  apiVersion: string;
  kind: 'Kustomization' | 'Component';
  resources?: string[];
  components?: string[];
  namespace?: string;
  images?: Array<{ name: string; newName?: string; newTag?: string; digest?: string }>;
  replicas?: Array<{ name: string; count: number }>;
  patches?: PatchEntry[];
}

const knownFields = new Set([
  'apiVersion',
  'kind',
  'resources',
  'components',
  'namespace',
  'images',
  'replicas',
  'patches',
]);

/** Kinds without a namespace among those Warden ships; the namespace transformer leaves them alone. */
const clusterScoped = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition']);

/** Every object in a multi-document YAML file; empty documents (a trailing `---`) are skipped. */
export function readObjects(file: string): K8sObject[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  return docs.flatMap((doc) => {
    if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0]!.message}`);
    const value = doc.toJS() as K8sObject | null;
    return value === null ? [] : [value];
  });
}

function readKustomization(dir: string, kind: Kustomization['kind']): Kustomization {
  const file = join(dir, 'kustomization.yaml');
  const [doc, ...more] = readObjects(file) as unknown as Kustomization[];
  if (!doc || more.length) throw new Error(`${file}: expected one document`);
  if (doc.kind !== kind) throw new Error(`${file}: expected kind ${kind}, got ${doc.kind}`);
  const unknown = Object.keys(doc).filter((key) => !knownFields.has(key));
  if (unknown.length)
    throw new Error(`${file}: fields this renderer does not implement: ${unknown.join(', ')}`);
  return doc;
}

const id = (o: K8sObject) => `${o.kind}/${o.metadata.namespace ?? '~'}/${o.metadata.name}`;

/** Containers of a pod template, wherever the workload keeps it. */
function podSpecOf(
  o: K8sObject,
): { containers?: Array<{ image?: string }>; initContainers?: Array<{ image?: string }> } | undefined {
  const spec = o.spec as
    { template?: { spec?: object }; jobTemplate?: { spec?: { template?: { spec?: object } } } } | undefined;
  return (spec?.template?.spec ?? spec?.jobTemplate?.spec?.template?.spec) as ReturnType<typeof podSpecOf>;
}

/** `registry/name:tag@digest` → its name (what kustomize's images[].name matches). */
function imageName(image: string): string {
  const withoutDigest = image.split('@')[0]!;
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.indexOf(':', lastSlash + 1);
  return colon === -1 ? withoutDigest : withoutDigest.slice(0, colon);
}

function transform(k: Kustomization, objects: K8sObject[], where: string): void {
  if (k.namespace) {
    for (const o of objects) if (!clusterScoped.has(o.kind)) o.metadata.namespace = k.namespace;
  }
  for (const entry of k.patches ?? []) {
    const { target, patch } = entry;
    const extra = Object.keys(target ?? {}).filter((key) => key !== 'kind' && key !== 'name');
    if (!target?.kind || !target.name || extra.length || typeof patch !== 'string')
      throw new Error(`${where}: only inline patches targeted by kind and name are implemented`);
    const ops = parseAllDocuments(patch)[0]?.toJS() as unknown;
    if (!Array.isArray(ops))
      throw new Error(`${where}: the patch for ${target.kind}/${target.name} is not a JSON 6902 list`);
    const matched = objects.filter((o) => o.kind === target.kind && o.metadata.name === target.name);
    // kustomize ignores a target that matches nothing; here it is a mistake worth failing on.
    if (!matched.length)
      throw new Error(`${where}: patch target ${target.kind}/${target.name} matches nothing`);
    for (const o of matched) jsonPatch.applyPatch(o, ops as Operation[], true, true);
  }
  for (const image of k.images ?? []) {
    for (const o of objects) {
      const pod = podSpecOf(o);
      for (const c of [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])]) {
        if (!c.image || imageName(c.image) !== image.name) continue;
        // Without a new tag or digest the image keeps the one it had, as in kustomize.
        const kept = c.image.slice(imageName(c.image).length);
        const tag = image.digest ? `@${image.digest}` : image.newTag ? `:${image.newTag}` : kept;
        c.image = `${image.newName ?? image.name}${tag}`;
      }
    }
  }
  for (const { name, count } of k.replicas ?? []) {
    const matched = objects.filter(
      (o) => ['Deployment', 'StatefulSet', 'ReplicaSet'].includes(o.kind) && o.metadata.name === name,
    );
    if (!matched.length) throw new Error(`${where}: replicas for ${name} match no workload`);
    for (const o of matched) (o.spec as { replicas?: number }).replicas = count;
  }
}

/** Adds the objects of a directory or file, named relative to `dir`, to `into`. */
function load(dir: string, entry: string, into: K8sObject[]): void {
  // kustomize refuses absolute paths: a kustomization must render the same from any checkout.
  if (isAbsolute(entry))
    throw new Error(`${dir}: ${entry} is absolute; kustomize accepts relative paths only`);
  const path = resolve(dir, entry);
  if (statSync(path).isDirectory()) into.push(...render(path));
  else into.push(...readObjects(path));
}

/**
 * The objects `kubectl kustomize <dir>` would print (in file order, not kustomize's kind order).
 * `extraComponents` (paths) are applied after the kustomization's own components, as if listed there.
 */
export function render(dir: string, extraComponents: string[] = []): K8sObject[] {
  const k = readKustomization(dir, 'Kustomization');
  const objects: K8sObject[] = [];
  for (const resource of k.resources ?? []) load(dir, resource, objects);
  const listed = (k.components ?? []).map((c) => {
    if (isAbsolute(c)) throw new Error(`${dir}: ${c} is absolute; kustomize accepts relative paths only`);
    return resolve(dir, c);
  });
  for (const componentDir of [...listed, ...extraComponents]) {
    const component = readKustomization(componentDir, 'Component');
    for (const resource of component.resources ?? []) load(componentDir, resource, objects);
    transform(component, objects, componentDir);
  }
  transform(k, objects, dir);
  const seen = new Set<string>();
  for (const o of objects) {
    if (seen.has(id(o))) throw new Error(`${dir}: ${id(o)} is defined twice`);
    seen.add(id(o));
  }
  return objects;
}
