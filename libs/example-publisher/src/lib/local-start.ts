import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { EXAMPLE_PAYWALLS } from './articles';
import { createExamplePublisher } from './example-publisher';

interface SavedKeys {
  publishableKey: string;
  secretKey: string;
}

/**
 * The example publisher under `npm start`: on first start it logs in as the bootstrap admin,
 * makes its own key pair and a paywall for each of its sections (one per presentation), and keeps
 * the keys under DATA_DIR (keys are shown once); later starts reuse them. It listens on `host`
 * (npm start's HOST: this machine only by default).
 */
export async function startLocalExamplePublisher(options: {
  gatewayUrl: string;
  admin: { email: string; password: string };
  dataDir: string;
  host: string;
  port: number;
}): Promise<Server> {
  const file = join(options.dataDir, 'example-publisher.json');
  let keys = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SavedKeys) : undefined;
  if (!keys) {
    const login = await fetch(`${options.gatewayUrl}/api/v1/admin/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(options.admin),
    });
    if (!login.ok) throw new Error(`the bootstrap admin could not log in (${login.status})`);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const admin = async <T>(path: string, body?: unknown): Promise<T> => {
      const answer = await fetch(`${options.gatewayUrl}/api/v1${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: cookie },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!answer.ok) throw new Error(`${body === undefined ? 'GET' : 'POST'} ${path}: ${answer.status} ${await answer.text()}`);
      return (await answer.json()) as T;
    };
    keys = await admin<SavedKeys>('/admin/api-keys', { name: `example-publisher-${Date.now()}` });
    const existing = await admin<{ items: Array<{ name: string }> }>('/admin/paywalls?limit=100');
    for (const paywall of EXAMPLE_PAYWALLS) if (!existing.items.some((p) => p.name === paywall.name)) await admin('/admin/paywalls', paywall);
    mkdirSync(options.dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify({ publishableKey: keys.publishableKey, secretKey: keys.secretKey }), { mode: 0o600 });
  }
  const app = createExamplePublisher({ gatehouseUrl: options.gatewayUrl, publishableKey: keys.publishableKey, secretKey: keys.secretKey });
  return new Promise((resolve, reject) => {
    const server = app.listen(options.port, options.host, () => resolve(server)).once('error', reject);
  });
}
