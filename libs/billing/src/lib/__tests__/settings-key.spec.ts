import { deleteEventStream } from '@gatehouse/bus';
import { type RunningService, startService } from '@gatehouse/runtime';
import { loadConfig } from '@gatehouse/platform';
import { createTestDatabase, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BillingConfig, billingService } from '../billing.module';

/** PROCESSOR_SETTINGS_KEY: checked with the configuration, required in production, generated once and kept under DATA_DIR elsewhere. */
describe('the key that seals processor settings', () => {
  const namespace = uniqueNamespace('billing');
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-billing-'));
  let db: TestDatabase;

  const boot = async (env: Record<string, string>): Promise<RunningService> =>
    startService(billingService, {
      config: loadConfig(BillingConfig, { LOG_LEVEL: 'silent', BUS_NAMESPACE: namespace, DATA_DIR: dataDir, ...env }),
      transport: { kind: 'nats', servers: [testNatsUrl()] },
      databaseUrl: db.url,
      migrate: true,
    });

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    await deleteEventStream([testNatsUrl()], namespace);
  });

  it('is generated on the first start outside production, readable by the owner only, and kept for the next starts', async () => {
    await (await boot({})).close();
    const keyFile = join(dataDir, 'processor-settings.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, 'utf8'), 'base64')).toHaveLength(32);
    const first = readFileSync(keyFile, 'utf8');
    await (await boot({})).close();
    expect(readFileSync(keyFile, 'utf8')).toBe(first);
  });

  it('is required in production', async () => {
    const environment = process.env['NODE_ENV'];
    process.env['NODE_ENV'] = 'production';
    try {
      await expect(boot({})).rejects.toThrow('Invalid configuration: PROCESSOR_SETTINGS_KEY is required in production');
    } finally {
      process.env['NODE_ENV'] = environment;
    }
  });

  it('must be 32 bytes, base64', async () => {
    await expect(boot({ PROCESSOR_SETTINGS_KEY: Buffer.alloc(16).toString('base64') })).rejects.toThrow(
      'Invalid configuration: PROCESSOR_SETTINGS_KEY must be 32 bytes, base64',
    );
  });
});
