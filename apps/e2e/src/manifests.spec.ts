import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './support/processes';

jest.setTimeout(120_000);

const run = promisify(execFile);

async function check(dir: string): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(ROOT, 'tools/check-manifests.mjs'), dir], { cwd: ROOT });
    return { ok: true, output: stdout + stderr };
  } catch (err) {
    const { stdout, stderr } = err as { stdout: string; stderr: string };
    return { ok: false, output: stdout + stderr };
  }
}

/** A copy of k8s/ with one file edited. */
function broken(file: string, edit: (text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-manifests-'));
  cpSync(join(ROOT, 'k8s'), dir, { recursive: true });
  const before = readFileSync(join(dir, file), 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`the edit of ${file} changed nothing`);
  writeFileSync(join(dir, file), after);
  return dir;
}

/** The deployment manifests: every overlay renders, validates against the Kubernetes schemas and references what exists. */
describe('the Kubernetes manifests', () => {
  const copies: string[] = [];
  afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('pass the check as committed', async () => {
    const result = await check(join(ROOT, 'k8s'));
    expect(result.output).toContain('Every overlay');
    expect(result.ok).toBe(true);
  });

  it.each([
    ['a Service port naming no container port', 'base/gateway.yaml', (t: string) => t.replace('targetPort: http', 'targetPort: web'), 'Service/gateway: targetPort web is not a port of the selected pods'],
    ['a Secret that does not exist', 'base/identity.yaml', (t: string) => t.replace('name: identity-secrets', 'name: identity-secret'), 'envFrom names missing Secret identity-secret'],
    ['another service’s image', 'base/billing.yaml', (t: string) => t.replace('image: gatehouse-billing', 'image: gatehouse-identity'), 'is not the image of billing'],
    ['a selector matching nothing', 'base/pdb.yaml', (t: string) => t.replace(/(name: access\n[\s\S]*?matchLabels: \{ app.kubernetes.io\/name: )access/, '$1acess'), 'PodDisruptionBudget/access: selector matches no pods'],
    ['an Ingress backend that does not exist', 'base/ingress.yaml', (t: string) => t.replace('name: dashboard,', 'name: dashbord,'), 'names missing Service dashbord'],
    ['an object the schema refuses', 'overlays/dev/redis.yaml', (t: string) => t.replace('replicas: 1', 'replicas: one'), 'Deployment/redis: data/spec/replicas must be integer'],
    ['replicas on a Deployment an HPA manages (base)', 'base/access.yaml', (t: string) => t.replace('# replicas are managed by the HorizontalPodAutoscaler (hpa.yaml).', 'replicas: 1'), 'Deployment/access: sets replicas (1) while HorizontalPodAutoscaler/access manages them'],
    ['replicas on a Deployment an HPA manages (overlay)', 'overlays/prod/kustomization.yaml', (t: string) => t.replace('  - { name: identity, count: 2 }', '  - { name: gateway, count: 2 }\n  - { name: identity, count: 2 }'), 'prod: Deployment/gateway: sets replicas (2) while HorizontalPodAutoscaler/gateway manages them'],
    ['a placeholder secret in the dev overlay', 'overlays/dev/secrets/branding.env', (t: string) => t.replace(/:[^:@]+@postgres/, ':REPLACE_ME@postgres'), 'Secret/branding-secrets: DATABASE_URL is a placeholder'],
  ])('fail on %s', async (_what, file, edit, expected) => {
    const dir = broken(file, edit);
    copies.push(dir);
    const result = await check(dir);
    expect(result.ok).toBe(false);
    expect(result.output).toContain(expected);
  });
});
