import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { createExamplePublisher } from './example-publisher';

interface SavedKeys {
  publishableKey: string;
  secretKey: string;
}

/**
 * The example publisher under `npm start`: on first start it logs in as the bootstrap admin,
 * makes its own key pair and a hard paywall over /articles/premium/**, and keeps the keys under
 * DATA_DIR (keys are shown once); later starts reuse them.
 */
export async function startLocalExamplePublisher(options: {
  gatewayUrl: string;
  admin: { email: string; password: string };
  dataDir: string;
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
    const admin = async <T>(path: string, body: unknown): Promise<T> => {
      const answer = await fetch(`${options.gatewayUrl}/api/v1${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie }, body: JSON.stringify(body) });
      if (!answer.ok) throw new Error(`POST ${path}: ${answer.status} ${await answer.text()}`);
      return (await answer.json()) as T;
    };
    keys = await admin<SavedKeys>('/admin/api-keys', { name: `example-publisher-${Date.now()}` });
    await admin('/admin/paywalls', { name: 'Example publisher: premium articles', type: 'hard', match: { include: ['/articles/premium/**'] } });
    mkdirSync(options.dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify({ publishableKey: keys.publishableKey, secretKey: keys.secretKey }), { mode: 0o600 });
  }
  const app = createExamplePublisher({ gatehouseUrl: options.gatewayUrl, publishableKey: keys.publishableKey, secretKey: keys.secretKey });
  return new Promise((resolve, reject) => {
    const server = app.listen(options.port, '0.0.0.0', () => resolve(server)).once('error', reject);
  });
}
