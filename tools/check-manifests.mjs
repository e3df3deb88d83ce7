// `npm run check:manifests [k8s-dir]`: renders every overlay of k8s/ with `kubectl kustomize`,
// validates each object against the Kubernetes API schemas (kubernetes-models, offline), and
// checks what the API server would not: that selectors select, ports and keys exist, images are
// pinned and named after their service, Deployments an HPA scales set no replicas of their own,
// and overlays meant to run as they are carry no placeholder secrets. Prints one line per problem; exits 1 when there is any.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);
const PLACEHOLDER = /REPLACE[_-]?ME/i;

export async function checkManifests(k8sDir) {
  const problems = [];
  const overlays = readdirSync(join(k8sDir, 'overlays')).filter((name) => statSync(join(k8sDir, 'overlays', name)).isDirectory());
  if (overlays.length === 0) problems.push(`${k8sDir}: no overlays`);
  for (const overlay of overlays) {
    const work = mkdtempSync(join(tmpdir(), 'gatehouse-k8s-'));
    try {
      cpSync(k8sDir, work, { recursive: true });
      // Overlays that read git-ignored files (prod's secrets) are rendered with their examples.
      const fromExamples = fillFromExamples(join(work, 'overlays', overlay));
      let rendered;
      try {
        rendered = execFileSync('kubectl', ['kustomize', join(work, 'overlays', overlay)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (err) {
        problems.push(`${overlay}: kubectl kustomize failed: ${String(err.stderr || err.message).trim()}`);
        continue;
      }
      const objects = parseAllDocuments(rendered).map((doc) => doc.toJS()).filter(Boolean).map(unwrapSecretData);
      for (const problem of [...(await validateSchemas(objects)), ...checkReferences(objects, { fromExamples })]) {
        problems.push(`${overlay}: ${problem}`);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return problems;
}

function fillFromExamples(dir) {
  let filled = false;
  for (const entry of readdirSync(dir, { recursive: true })) {
    const file = join(dir, String(entry));
    if (file.endsWith('.example') && !existsSync(file.slice(0, -'.example'.length))) {
      cpSync(file, file.slice(0, -'.example'.length));
      filled = true;
    }
  }
  return filled;
}

/** kustomize wraps long base64 values over lines; the API server reads them without the breaks. */
function unwrapSecretData(object) {
  if (object.kind !== 'Secret' || !object.data) return object;
  return { ...object, data: Object.fromEntries(Object.entries(object.data).map(([k, v]) => [k, String(v).replace(/\s+/g, '')])) };
}

const id = (o) => `${o.kind}/${o.metadata?.name}`;

async function validateSchemas(objects) {
  const problems = [];
  for (const object of objects) {
    const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : [null, object.apiVersion];
    let Model;
    try {
      Model = (await import(`kubernetes-models/${group ? `${group}/` : ''}${version}/${object.kind}`))[object.kind];
    } catch {
      problems.push(`${id(object)}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (err) {
      problems.push(`${id(object)}: ${err.message.split('\n')[0]}`);
    }
  }
  return problems;
}

const matches = (selector, labels) => Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v);
const podsOf = (workloads, selector) => workloads.filter((w) => matches(selector, w.spec.template.metadata?.labels));
const containersOf = (workload) => [...(workload.spec.template.spec.initContainers ?? []), ...workload.spec.template.spec.containers];
const hasPort = (workload, port) => containersOf(workload).some((c) => (c.ports ?? []).some((p) => p.name === port || p.containerPort === port));

function checkReferences(objects, { fromExamples }) {
  const problems = [];
  const byKind = (kind) => objects.filter((o) => o.kind === kind);
  const workloads = objects.filter((o) => WORKLOADS.has(o.kind));
  const keysOf = (kind, name) => {
    const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
    return o ? new Set(Object.keys({ ...o.data, ...o.stringData, ...o.binaryData })) : undefined;
  };

  for (const w of workloads) {
    const labels = w.spec.template.metadata?.labels;
    if (!matches(w.spec.selector?.matchLabels, labels)) problems.push(`${id(w)}: selector does not match its pod template's labels`);
    if (w.kind === 'StatefulSet' && !byKind('Service').some((s) => s.metadata.name === w.spec.serviceName)) {
      problems.push(`${id(w)}: serviceName ${w.spec.serviceName} names no Service`);
    }
    for (const volume of w.spec.template.spec.volumes ?? []) {
      if (volume.configMap && !volume.configMap.optional && !keysOf('ConfigMap', volume.configMap.name)) problems.push(`${id(w)}: volume ${volume.name} names missing ConfigMap ${volume.configMap.name}`);
      if (volume.secret && !volume.secret.optional && !keysOf('Secret', volume.secret.secretName)) problems.push(`${id(w)}: volume ${volume.name} names missing Secret ${volume.secret.secretName}`);
    }
    for (const c of containersOf(w)) {
      const where = `${id(w)} container ${c.name}`;
      for (const from of c.envFrom ?? []) {
        if (from.configMapRef && !from.configMapRef.optional && !keysOf('ConfigMap', from.configMapRef.name)) problems.push(`${where}: envFrom names missing ConfigMap ${from.configMapRef.name}`);
        if (from.secretRef && !from.secretRef.optional && !keysOf('Secret', from.secretRef.name)) problems.push(`${where}: envFrom names missing Secret ${from.secretRef.name}`);
      }
      for (const env of c.env ?? []) {
        for (const [kind, ref] of [['ConfigMap', env.valueFrom?.configMapKeyRef], ['Secret', env.valueFrom?.secretKeyRef]]) {
          if (!ref || ref.optional) continue;
          const keys = keysOf(kind, ref.name);
          if (!keys) problems.push(`${where}: env ${env.name} names missing ${kind} ${ref.name}`);
          else if (!keys.has(ref.key)) problems.push(`${where}: env ${env.name} names missing key ${ref.key} of ${kind} ${ref.name}`);
        }
      }
      for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
        const port = c[probe]?.httpGet?.port ?? c[probe]?.tcpSocket?.port;
        if (port !== undefined && !(c.ports ?? []).some((p) => p.name === port || p.containerPort === port)) problems.push(`${where}: ${probe} port ${port} is not a port of the container`);
      }
      const image = String(c.image ?? '');
      const tag = image.includes('@') ? 'digest' : image.split('/').pop().split(':')[1];
      if (!tag || tag === 'latest') problems.push(`${where}: image ${image} is not pinned to a tag or digest`);
      if (labels?.['app.kubernetes.io/part-of'] === 'gatehouse') {
        const name = image.split('@')[0].split('/').pop().split(':')[0];
        // An init container (the migration step) runs the image of the pod's own service.
        const owner = (w.spec.template.spec.initContainers ?? []).includes(c) ? labels['app.kubernetes.io/name'] : c.name;
        if (name !== `gatehouse-${owner}`) problems.push(`${where}: image ${image} is not the image of ${owner} (gatehouse-${owner})`);
      }
    }
  }

  for (const s of byKind('Service')) {
    if (!s.spec.selector) continue;
    const pods = podsOf(workloads, s.spec.selector);
    if (pods.length === 0) problems.push(`${id(s)}: selector matches no pods`);
    for (const port of s.spec.ports ?? []) {
      const target = port.targetPort ?? port.port;
      if (pods.length && !pods.some((w) => hasPort(w, target))) problems.push(`${id(s)}: targetPort ${target} is not a port of the selected pods`);
    }
  }
  for (const pdb of byKind('PodDisruptionBudget')) {
    if (podsOf(workloads, pdb.spec.selector?.matchLabels).length === 0) problems.push(`${id(pdb)}: selector matches no pods`);
  }
  for (const hpa of byKind('HorizontalPodAutoscaler')) {
    const ref = hpa.spec.scaleTargetRef;
    const target = workloads.find((w) => w.kind === ref.kind && w.metadata.name === ref.name);
    if (!target) problems.push(`${id(hpa)}: scaleTargetRef ${ref.kind}/${ref.name} does not exist`);
    // Every apply would reset the count the autoscaler chose (a scaled-out Deployment drops back).
    else if (target.spec.replicas !== undefined) problems.push(`${id(target)}: sets replicas (${target.spec.replicas}) while ${id(hpa)} manages them`);
  }
  for (const ingress of byKind('Ingress')) {
    for (const rule of ingress.spec.rules ?? []) {
      for (const path of rule.http?.paths ?? []) {
        const backend = path.backend.service;
        const service = byKind('Service').find((s) => s.metadata.name === backend.name);
        if (!service) problems.push(`${id(ingress)}: path ${path.path} names missing Service ${backend.name}`);
        else if (!(service.spec.ports ?? []).some((p) => p.name === backend.port.name || p.port === backend.port.number)) {
          problems.push(`${id(ingress)}: path ${path.path} names port ${backend.port.name ?? backend.port.number} that Service ${backend.name} does not have`);
        }
      }
    }
  }
  for (const policy of byKind('NetworkPolicy')) {
    const selected = podsOf(workloads, policy.spec.podSelector?.matchLabels);
    if (selected.length === 0) problems.push(`${id(policy)}: podSelector matches no pods`);
    for (const rule of policy.spec.ingress ?? []) {
      for (const from of rule.from ?? []) {
        if (from.podSelector?.matchLabels && podsOf(workloads, from.podSelector.matchLabels).length === 0) problems.push(`${id(policy)}: a from.podSelector matches no pods`);
      }
      for (const port of rule.ports ?? []) {
        if (port.port !== undefined && policy.spec.podSelector?.matchLabels && !selected.some((w) => hasPort(w, port.port))) {
          problems.push(`${id(policy)}: port ${port.port} is not a port of the selected pods`);
        }
      }
    }
  }
  if (!fromExamples) {
    for (const secret of byKind('Secret')) {
      for (const [key, value] of Object.entries({ ...secret.data })) {
        if (PLACEHOLDER.test(Buffer.from(String(value), 'base64').toString('utf8'))) problems.push(`${id(secret)}: ${key} is a placeholder in an overlay meant to run as it is`);
      }
      for (const [key, value] of Object.entries({ ...secret.stringData })) {
        if (PLACEHOLDER.test(String(value))) problems.push(`${id(secret)}: ${key} is a placeholder in an overlay meant to run as it is`);
      }
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = resolve(process.argv[2] ?? 'k8s');
  const problems = await checkManifests(dir);
  for (const problem of problems) console.error(problem);
  console.log(problems.length ? `${problems.length} problem(s) in ${dir}` : `Every overlay of ${dir} renders, validates and references what exists.`);
  process.exit(problems.length ? 1 : 0);
}
