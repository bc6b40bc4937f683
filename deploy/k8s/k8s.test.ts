import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { repoRoot } from '@warden/shared/paths';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Service, ServiceAccount } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readObjects, render, type K8sObject } from './render';

/**
 * deploy/k8s, checked offline: the base (alone and with the API and alerter components) and every
 * overlay (which lists both components) is
 * rendered as kustomize would and each object is validated against Kubernetes' own OpenAPI schemas
 * (kubernetes-models), then held to Warden's rules: probes on the real endpoints, requests and
 * limits, a PodDisruptionBudget, a restricted security context, default-deny networking with only
 * the needed flows, credentials from the Secret only, consumers within the partition count.
 */

const k8sDir = resolve(repoRoot, 'deploy/k8s');
const overlays = readdirSync(resolve(k8sDir, 'overlays'));
const components = readdirSync(resolve(k8sDir, 'components')).map((c) => resolve(k8sDir, 'components', c));

/** Every kind Warden ships, by apiVersion/kind, with the upstream schema that validates it. */
const models: Record<string, { new (data: never): { validate(): void } }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'networking.k8s.io/v1/Ingress': Ingress,
};

/** Throws with the schema's message when `o` is not a valid object of its kind. */
function validate(o: K8sObject): void {
  const Model = models[`${o.apiVersion}/${o.kind}`];
  if (!Model) throw new Error(`${o.apiVersion}/${o.kind} is not a kind this check knows`);
  try {
    new Model(o as never).validate();
  } catch (err) {
    throw new Error(`${o.kind}/${o.metadata?.name}: ${(err as Error).message}`, { cause: err });
  }
}

interface Probe {
  httpGet?: { path?: string; port?: string | number };
}
interface Container {
  name: string;
  image?: string;
  command?: string[];
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    runAsNonRoot?: boolean;
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[]; add?: string[] };
    seccompProfile?: { type?: string };
  };
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  automountServiceAccountToken?: boolean;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type?: string } };
}
interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec: PodSpec;
}
type Selector = { matchLabels?: Record<string, string> };
interface PolicyPeer {
  namespaceSelector?: Selector;
  podSelector?: Selector;
  ipBlock?: { cidr: string };
}
interface PolicyRule {
  from?: PolicyPeer[];
  to?: PolicyPeer[];
  ports?: Array<{ port?: number | string; protocol?: string }>;
}
interface NetworkPolicySpec {
  podSelector: Selector;
  policyTypes?: string[];
  ingress?: PolicyRule[];
  egress?: PolicyRule[];
}

const workloads = (objects: K8sObject[]) =>
  objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');
const podOf = (o: K8sObject) => (o.spec as { template: PodTemplate }).template;
const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const named = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);
const selects = (selector: Selector | undefined, labels: Record<string, string> = {}) =>
  Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);

/**
 * What a workload must have, as a list of problems (empty when it complies): the restricted
 * security context, requests and limits, and, for long-running processes, probes on a declared port.
 */
function workloadProblems(o: K8sObject): string[] {
  const problems: string[] = [];
  const at = `${o.kind}/${o.metadata.name}`;
  const pod = podOf(o).spec;
  if (pod.securityContext?.runAsNonRoot !== true) problems.push(`${at}: pod runAsNonRoot`);
  if (!pod.securityContext?.runAsUser)
    problems.push(`${at}: pod runAsUser (numeric, so runAsNonRoot is checkable)`);
  if (pod.securityContext?.seccompProfile?.type !== 'RuntimeDefault') problems.push(`${at}: pod seccomp`);
  if (pod.automountServiceAccountToken !== false) problems.push(`${at}: service account token mounted`);
  for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
    const cat = `${at} container ${c.name}`;
    const sc = c.securityContext;
    if (sc?.runAsNonRoot !== true) problems.push(`${cat}: runAsNonRoot`);
    if (sc?.allowPrivilegeEscalation !== false) problems.push(`${cat}: allowPrivilegeEscalation`);
    if (sc?.readOnlyRootFilesystem !== true) problems.push(`${cat}: readOnlyRootFilesystem`);
    if (!sc?.capabilities?.drop?.includes('ALL') || sc.capabilities.add?.length)
      problems.push(`${cat}: capabilities (drop ALL, add none)`);
    if (sc?.seccompProfile?.type !== 'RuntimeDefault') problems.push(`${cat}: seccomp`);
    for (const kind of ['requests', 'limits'] as const)
      for (const resource of ['cpu', 'memory'])
        if (!c.resources?.[kind]?.[resource]) problems.push(`${cat}: resources.${kind}.${resource}`);
    if (o.kind !== 'Deployment') continue;
    const ports = new Set((c.ports ?? []).flatMap((p) => [p.name, p.containerPort]));
    for (const [probe, path] of [
      ['livenessProbe', '/healthz'],
      ['readinessProbe', '/readyz'],
    ] as const) {
      const get = c[probe]?.httpGet;
      if (get?.path !== path) problems.push(`${cat}: ${probe} GET ${path}`);
      else if (get.port === undefined || !ports.has(get.port))
        problems.push(`${cat}: ${probe} port ${get.port} is not a declared container port`);
    }
  }
  return problems;
}

// The base is the data plane; the overlays list the API and alerter components themselves.
const renders = [
  { name: 'base', objects: render(resolve(k8sDir, 'base')) },
  { name: 'base + components', objects: render(resolve(k8sDir, 'base'), components) },
  ...overlays.map((o) => ({ name: `overlays/${o}`, objects: render(resolve(k8sDir, 'overlays', o)) })),
];

describe('deploy/k8s renders and validates against the Kubernetes schemas', () => {
  it('has the local and production overlays and the api and alerter components', () => {
    expect(overlays.sort()).toEqual(['local', 'production']);
    expect(components.map((c) => c.split('/').at(-1)).sort()).toEqual(['alerter', 'api']);
  });

  it.each(renders)('$name: every object is valid for its kind', ({ objects }) => {
    expect(objects.length).toBeGreaterThan(10);
    for (const o of objects) expect(() => validate(o)).not.toThrow();
  });

  it('refuses an invalid object: a wrong type, a missing required field, an unknown kind', () => {
    const [overlay] = renders;
    const ingest = structuredClone(named(overlay!.objects, 'Deployment', 'ingest')!);
    expect(() => validate(ingest)).not.toThrow();

    const replicasAsText = structuredClone(ingest);
    (replicasAsText.spec as { replicas: unknown }).replicas = 'two';
    expect(() => validate(replicasAsText)).toThrow(/replicas must be integer/);

    const unnamedContainer = structuredClone(ingest);
    delete (podOf(unnamedContainer).spec.containers[0] as Partial<Container>).name;
    expect(() => validate(unnamedContainer)).toThrow(/containers\/0 must have required property name/);

    const probeOnBoolean = structuredClone(ingest);
    (podOf(probeOnBoolean).spec.containers[0]!.livenessProbe!.httpGet as { port: unknown }).port = true;
    expect(() => validate(probeOnBoolean)).toThrow(/livenessProbe\/httpGet\/port/);

    const pdb = structuredClone(named(overlay!.objects, 'PodDisruptionBudget', 'ingest')!);
    expect(() => validate({ ...pdb, apiVersion: 'policy/v1beta1' })).toThrow(/not a kind this check knows/);
  });

  it('renders as kustomize would: namespace, image, replicas and patches applied; unknown features refused', () => {
    const production = render(resolve(k8sDir, 'overlays/production'));
    for (const o of production)
      if (o.kind !== 'Namespace') expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).toBe('warden');
    for (const w of workloads(production))
      for (const c of podOf(w).spec.containers) expect(c.image).toBe('registry.example.com/warden:0.1.0');
    expect((named(production, 'Deployment', 'sink')!.spec as { replicas: number }).replicas).toBe(3);
    expect(
      (named(production, 'ConfigMap', 'warden-config')!.data as Record<string, string>)
        .WARDEN_TOPIC_PARTITIONS,
    ).toBe('12');
    // The production entrance: TLS, to ingest's API port, admitting a whole 5 MiB batch.
    const ingress = named(production, 'Ingress', 'warden')!;
    const ingressSpec = ingress.spec as {
      tls?: Array<{ secretName?: string }>;
      rules: Array<{
        http: { paths: Array<{ backend: { service: { name: string; port: { name: string } } } }> };
      }>;
    };
    expect(ingressSpec.tls?.[0]?.secretName).toBeTruthy();
    const backends = ingressSpec.rules.flatMap((r) => r.http.paths.map((p) => p.backend.service));
    expect(backends).toEqual([{ name: 'ingest', port: { name: 'http' } }]);
    const servicePorts = (named(production, 'Service', 'ingest')!.spec as { ports: Array<{ name: string }> })
      .ports;
    expect(servicePorts.map((p) => p.name)).toContain('http');
    const bodySize = (ingress.metadata.annotations as Record<string, string>)[
      'nginx.ingress.kubernetes.io/proxy-body-size'
    ];
    expect(Number(/^(\d+)m$/.exec(bodySize ?? '')?.[1])).toBeGreaterThan(5);

    const local = render(resolve(k8sDir, 'overlays/local'));
    expect(local.find((o) => o.kind === 'Namespace')?.metadata.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'restricted',
    });
    for (const w of workloads(local))
      for (const c of podOf(w).spec.containers) expect(c.image).toBe('warden:local');

    // A kustomization using a feature the renderer does not implement fails instead of being
    // half-rendered, and so does a patch that would silently patch nothing.
    expect(() => render(resolve(k8sDir, 'components/api'))).toThrow(
      /expected kind Kustomization, got Component/,
    );
    const scratch = mkdtempSync(join(tmpdir(), 'warden-k8s-'));
    try {
      let base = relative(scratch, resolve(k8sDir, 'base'));
      const kustomization = (extra: string) =>
        writeFileSync(
          join(scratch, 'kustomization.yaml'),
          `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [${base}]\n${extra}`,
        );
      kustomization('');
      expect(render(scratch).length).toBeGreaterThan(10);
      // A new registry without a new tag keeps the tag the base set, as kustomize does.
      kustomization('images: [{name: warden, newName: registry.example.org/w}]\n');
      const images = render(scratch).flatMap((o) =>
        o.kind === 'Deployment' ? podOf(o).spec.containers.map((c) => c.image) : [],
      );
      expect(new Set(images)).toEqual(new Set(['registry.example.org/w:latest']));
      kustomization('commonLabels: {team: security}\n');
      expect(() => render(scratch)).toThrow(/fields this renderer does not implement: commonLabels/);
      kustomization(
        "patches:\n  - target: {kind: Deployment, name: ingset}\n    patch: '[{op: remove, path: /spec}]'\n",
      );
      expect(() => render(scratch)).toThrow(/Deployment\/ingset matches nothing/);
      kustomization(
        "patches:\n  - target: {kind: Deployment, name: ingest}\n    patch: '[{op: replace, path: /spec/replica, value: 1}]'\n",
      );
      expect(() => render(scratch)).toThrow();
      base = resolve(k8sDir, 'base');
      kustomization('');
      expect(() => render(scratch)).toThrow(/is absolute; kustomize accepts relative paths only/);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe.each(renders)('$name', ({ objects }) => {
  const config = named(objects, 'ConfigMap', 'warden-config')!.data as Record<string, string>;
  const partitions = Number(config.WARDEN_TOPIC_PARTITIONS);

  it('runs every workload as a restricted, resource-bounded, probed process', () => {
    expect(workloads(objects).length).toBeGreaterThanOrEqual(4);
    expect(workloads(objects).flatMap(workloadProblems)).toEqual([]);
  });

  it('gives every Deployment a PodDisruptionBudget that selects its pods and lets one go at a time', () => {
    for (const d of byKind(objects, 'Deployment')) {
      const labels = podOf(d).metadata?.labels;
      const pdbs = byKind(objects, 'PodDisruptionBudget').filter((p) =>
        selects((p.spec as { selector: Selector }).selector, labels),
      );
      expect(
        pdbs.map((p) => p.metadata.name),
        d.metadata.name,
      ).toEqual([d.metadata.name]);
      // minAvailable would block every drain of a one-replica deployment (the local overlay).
      expect((pdbs[0]!.spec as { maxUnavailable?: number }).maxUnavailable).toBe(1);
    }
  });

  it('autoscales ingest on CPU, and keeps every consumer within the topic partition count', () => {
    const hpa = (name: string) =>
      byKind(objects, 'HorizontalPodAutoscaler').find(
        (h) => (h.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name === name,
      )?.spec as { minReplicas: number; maxReplicas: number } | undefined;
    expect(hpa('ingest')).toBeDefined();
    expect(named(objects, 'Deployment', 'ingest')!.spec).not.toHaveProperty('replicas');
    expect(partitions).toBeGreaterThanOrEqual(1);
    const consumers = byKind(objects, 'Deployment').filter(
      (d) => d.metadata.labels?.['app.kubernetes.io/component'] === 'consumer',
    );
    expect(consumers.map((d) => d.metadata.name)).toEqual(expect.arrayContaining(['detector', 'sink']));
    for (const d of consumers) {
      const spec = d.spec as { replicas?: number; strategy?: { rollingUpdate?: { maxSurge?: number } } };
      const most = hpa(d.metadata.name)?.maxReplicas ?? spec.replicas;
      expect(most, `${d.metadata.name}: replicas or maxReplicas`).toBeDefined();
      expect(
        most!,
        `${d.metadata.name} members beyond ${partitions} partitions would idle`,
      ).toBeLessThanOrEqual(partitions);
      expect(spec.strategy?.rollingUpdate?.maxSurge, `${d.metadata.name} surges past the bound`).toBe(0);
    }
  });

  it('denies all traffic by default and opens only DNS, the API ports, metrics and each store a pod uses', () => {
    const policies = byKind(objects, 'NetworkPolicy').map((p) => ({
      name: p.metadata.name,
      spec: p.spec as NetworkPolicySpec,
    }));
    const deny = policies.find(
      (p) =>
        Object.keys(p.spec.podSelector.matchLabels ?? {}).length === 0 &&
        !p.spec.ingress?.length &&
        !p.spec.egress?.length,
    );
    expect(deny?.spec.policyTypes?.sort()).toEqual(['Egress', 'Ingress']);

    const stores: Record<string, { label: string; port: number; env?: string }> = {
      kafka: { label: 'warden.io/kafka', port: 9092 },
      clickhouse: { label: 'warden.io/clickhouse', port: 8123, env: 'CLICKHOUSE_URL' },
      redis: { label: 'warden.io/redis', port: 6379, env: 'REDIS_URL' },
      postgres: { label: 'warden.io/postgres', port: 5432, env: 'DATABASE_URL' },
    };
    const egressOf = (labels: Record<string, string>) =>
      policies.filter((p) => p.spec.policyTypes?.includes('Egress') && selects(p.spec.podSelector, labels));
    for (const w of workloads(objects)) {
      const labels = podOf(w).metadata?.labels ?? {};
      const env = podOf(w).spec.containers.flatMap((c) => (c.env ?? []).map((e) => e.name));
      const reach = egressOf(labels).flatMap((p) => p.spec.egress ?? []);
      const at = `${w.kind}/${w.metadata.name}`;
      // DNS from every pod; each store's port only from the pods labelled for it.
      expect(
        reach.some((r) => r.ports?.some((p) => p.port === 53)),
        `${at} DNS`,
      ).toBe(true);
      for (const [store, { label, port, env: variable }] of Object.entries(stores)) {
        const allowed = reach.some((r) => r.ports?.some((p) => p.port === port));
        expect(allowed, `${at} → ${store}`).toBe(labels[label] === 'true');
        if (variable && env.includes(variable)) expect(labels[label], `${at} reads ${variable}`).toBe('true');
      }
      if (['ingest', 'detector', 'sink', 'alerter', 'warden-init'].includes(w.metadata.name))
        expect(labels[stores.kafka!.label], `${at} uses Kafka`).toBe('true');
      // Any egress rule to the outside world (an ipBlock) belongs to the webhook sender alone.
      const outside = reach.filter((r) => r.to?.some((peer) => peer.ipBlock));
      expect(outside.length > 0, `${at} reaches outside the cluster`).toBe(w.metadata.name === 'alerter');
    }

    // Ingress from anywhere: only the API ports of ingest and the API, and metrics from monitoring.
    for (const p of policies)
      for (const rule of p.spec.ingress ?? []) {
        const ports = (rule.ports ?? []).map((x) => x.port);
        if (ports.includes('metrics')) {
          expect(rule.from, p.name).toEqual([
            { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
          ]);
        } else {
          expect(ports.length, `${p.name} admits every port`).toBeGreaterThan(0);
          expect(
            ports.every((x) => x === 8080 || x === 8081),
            `${p.name} admits ${ports.join(',')}`,
          ).toBe(true);
        }
      }
  });

  it('takes credentials from the Secret warden-credentials only, and keeps none in the ConfigMap', () => {
    expect(byKind(objects, 'Secret')).toEqual([]);
    for (const w of workloads(objects))
      for (const c of podOf(w).spec.containers) {
        for (const e of c.env ?? []) {
          if (e.valueFrom?.secretKeyRef) expect(e.valueFrom.secretKeyRef.name).toBe('warden-credentials');
          if (/_URL$|PASSWORD|SECRET/.test(e.name))
            expect(e.valueFrom?.secretKeyRef?.key, `${w.metadata.name} ${e.name}`).toBe(e.name);
        }
        expect(c.envFrom ?? []).toEqual([{ configMapRef: { name: 'warden-config' } }]);
      }
    for (const [key, value] of Object.entries(config)) {
      expect(key).not.toMatch(/_URL$|PASSWORD|SECRET/);
      expect(value, key).not.toMatch(/:\/\/[^/]*@/);
    }
  });
});

describe('deploy/k8s matches the code and docker-compose', () => {
  const production = render(resolve(k8sDir, 'overlays/production'));
  const sources = [
    'shared/src',
    ...readdirSync(resolve(repoRoot, 'services')).map((s) => `services/${s}/src`),
  ]
    .flatMap((dir) =>
      readdirSync(resolve(repoRoot, dir), { recursive: true }).map((f) => join(dir, String(f))),
    )
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => readFileSync(resolve(repoRoot, f), 'utf8'))
    .join('\n');

  it('sets only variables the services read (or the init command uses)', () => {
    const initCommand = ['WARDEN_TOPIC_REPLICATION_FACTOR'];
    const names = new Set([
      ...Object.keys(named(production, 'ConfigMap', 'warden-config')!.data as object),
      ...workloads(production).flatMap((w) =>
        podOf(w).spec.containers.flatMap((c) => (c.env ?? []).map((e) => e.name)),
      ),
    ]);
    expect(names.size).toBeGreaterThan(10);
    const initContainers = JSON.stringify(podOf(named(production, 'Job', 'warden-init')!).spec.containers);
    const unread = [...names].filter(
      (name) =>
        !(initCommand.includes(name) && initContainers.includes(`$${name}`)) &&
        !sources.includes(`'${name}'`),
    );
    expect(unread, 'variables nothing reads').toEqual([]);
  });

  it('runs every service as docker-compose does, from a main.ts that exists, in every overlay', () => {
    const compose = parse(readFileSync(resolve(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
      services: Record<string, { command?: string[] }>;
    };
    for (const overlay of overlays) {
      const objects = render(resolve(k8sDir, 'overlays', overlay));
      for (const name of ['ingest', 'detector', 'sink', 'api', 'alerter']) {
        const deployment = named(objects, 'Deployment', name);
        expect(deployment, `${overlay} deploys ${name}`).toBeDefined();
        const [container] = podOf(deployment!).spec.containers;
        expect(container!.command, `${overlay}/${name}`).toEqual(compose.services[name]!.command);
        expect(existsSync(resolve(repoRoot, `services/${name}/src/main.ts`))).toBe(true);
      }
    }
  });

  it('uses replicated tables where the ClickHouse is a cluster, local ones on the development server', () => {
    const clusterOf = (objects: K8sObject[]) =>
      (named(objects, 'ConfigMap', 'warden-config')!.data as Record<string, string>).CLICKHOUSE_CLUSTER;
    const altinity = readObjects(resolve(k8sDir, 'operators/altinity-clickhouse.yaml')).find(
      (o) => o.kind === 'ClickHouseInstallation',
    )!;
    const clusters = (altinity.spec as { configuration: { clusters: Array<{ name: string }> } }).configuration
      .clusters;
    expect(clusters.map((c) => c.name)).toContain(clusterOf(production));
    expect(clusterOf(render(resolve(k8sDir, 'overlays/local')))).toBeUndefined();
  });

  it('points the services at the operator examples: Strimzi with 3 brokers and min.insync.replicas=2, ClickHouse with 2 replicas and Keeper', () => {
    const config = named(production, 'ConfigMap', 'warden-config')!.data as Record<string, string>;
    const strimzi = readObjects(resolve(k8sDir, 'operators/strimzi-kafka.yaml'));
    const kafka = strimzi.find((o) => o.kind === 'Kafka')!;
    const kafkaSpec = kafka.spec as {
      kafka: { config: Record<string, unknown>; listeners: Array<{ port: number; tls: boolean }> };
    };
    const brokers = strimzi
      .filter(
        (o) =>
          o.kind === 'KafkaNodePool' && o.metadata.labels?.['strimzi.io/cluster'] === kafka.metadata.name,
      )
      .map((o) => o.spec as { replicas: number; roles: string[] })
      .filter((pool) => pool.roles.includes('broker'))
      .reduce((sum, pool) => sum + pool.replicas, 0);
    expect(brokers).toBe(3);
    expect(kafkaSpec.kafka.config['min.insync.replicas']).toBe(2);
    expect(kafkaSpec.kafka.config['default.replication.factor']).toBe(3);
    expect(Number(config.WARDEN_TOPIC_REPLICATION_FACTOR)).toBe(3);
    const plain = kafkaSpec.kafka.listeners.find((l) => !l.tls)!;
    expect(config.KAFKA_BROKERS).toBe(`${kafka.metadata.name}-kafka-bootstrap.kafka.svc:${plain.port}`);

    const altinity = readObjects(resolve(k8sDir, 'operators/altinity-clickhouse.yaml'));
    const keeper = altinity.find((o) => o.kind === 'ClickHouseKeeperInstallation')!;
    const chi = altinity.find((o) => o.kind === 'ClickHouseInstallation')!;
    const chiConfig = (chi.spec as { configuration: Record<string, unknown> }).configuration as {
      zookeeper: { nodes: Array<{ host: string }> };
      clusters: Array<{ layout: { replicasCount: number } }>;
      users: Record<string, unknown>;
    };
    expect(chiConfig.clusters[0]!.layout.replicasCount).toBe(2);
    expect(chiConfig.zookeeper.nodes[0]!.host).toBe(`keeper-${keeper.metadata.name}.clickhouse.svc`);
    expect(Object.keys(chiConfig.users).some((k) => k.endsWith('/password'))).toBe(false);

    // The egress policies select the pods those operators label.
    const to = (name: string) =>
      (named(production, 'NetworkPolicy', name)!.spec as NetworkPolicySpec).egress![0]!.to![0]!.podSelector!
        .matchLabels;
    expect(to('warden-to-kafka')).toEqual({
      'strimzi.io/cluster': kafka.metadata.name,
      'strimzi.io/kind': 'Kafka',
    });
    expect(to('warden-to-clickhouse')).toEqual({ 'clickhouse.altinity.com/chi': chi.metadata.name });
  });
});
