import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { accessService } from '@gatehouse/access';
import { adminService } from '@gatehouse/admin';
import { billingService } from '@gatehouse/billing';
import { brandingService } from '@gatehouse/branding';
import { deleteEventStream } from '@gatehouse/bus';
import { identityService } from '@gatehouse/identity';
import { loadConfig, type ServiceDefinition } from '@gatehouse/platform';
import { startService, type RunningService } from '@gatehouse/runtime';
import { testNatsUrl, uniqueNamespace } from '@gatehouse/testing';
import { webhooksOutService } from '@gatehouse/webhooks-out';
import { call } from './support/http';
import { exited, PrivatePostgres, ROOT } from './support/processes';
import { adminSession, bootstrapEnv } from './support/staff';
import { startGatewayOverNats, type TestGateway } from './support/system';
import { WEBHOOKS_ENV } from './support/webhooks';

jest.setTimeout(240_000);

const SCHEMAS: Record<string, ServiceDefinition<any>> = {
  identity: identityService,
  admin: adminService,
  access: accessService,
  billing: billingService,
  webhooks_out: webhooksOutService,
  branding: brandingService,
};
const password = (schema: string) => `pw-${schema}-${randomBytes(6).toString('hex')}`;

/**
 * The deployment's roles as docs/operations.md sets them up, on a fresh cluster: init-roles.sh as
 * the administrator, the migration command as the schemas' owner, then every service under its
 * own role, which may neither create schemas nor reach another service's tables.
 */
describe('least-privilege database roles', () => {
  const namespace = uniqueNamespace('roles');
  const passwords = Object.fromEntries(['owner', ...Object.keys(SCHEMAS)].map((name) => [name, password(name)]));
  let pg: PrivatePostgres;
  let gateway: TestGateway;
  const services: RunningService[] = [];

  const roleUrl = (schema: string) => pg.url(`gatehouse_${schema}`, passwords[schema]);
  const start = (schema: string) => {
    const definition = SCHEMAS[schema];
    const env = {
      LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
      NATS_URL: testNatsUrl(),
      BUS_NAMESPACE: namespace,
      DATABASE_URL: roleUrl(schema),
      ...bootstrapEnv({ name: 'Roles Weekly', domains: ['roles.example'] }),
      PROCESSOR_SETTINGS_KEY: randomBytes(32).toString('base64'),
      SIGNING_KEYS_KEY: randomBytes(32).toString('base64'),
      ...WEBHOOKS_ENV,
    };
    return startService(definition, { config: loadConfig(definition.config, env), transport: { kind: 'nats', servers: [testNatsUrl()] }, databaseUrl: roleUrl(schema) });
  };

  beforeAll(async () => {
    pg = await PrivatePostgres.start();
  });

  afterAll(async () => {
    await gateway?.close();
    for (const service of services) await service.close();
    await pg?.destroy();
    await deleteEventStream([testNatsUrl()], namespace);
  });

  it('applies the roles, migrates as the owner, and starts every service under its own role', async () => {
    const env: Record<string, string> = { POSTGRES_DB: 'gatehouse', GATEHOUSE_OWNER_PASSWORD: passwords['owner'] };
    for (const schema of Object.keys(SCHEMAS)) env[`GATEHOUSE_${schema.toUpperCase()}_PASSWORD`] = passwords[schema];
    const script = spawn('sh', ['k8s/overlays/dev/init-roles.sh'], { cwd: ROOT, env: { ...process.env, ...pg.adminEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let scriptOutput = '';
    script.stderr!.on('data', (chunk) => (scriptOutput += chunk));
    expect([await exited(script), scriptOutput]).toEqual([0, '']);

    // A service role may not create schemas (what every service used to do at start).
    const asIdentity = new Client({ connectionString: roleUrl('identity') });
    await asIdentity.connect();
    await expect(asIdentity.query('CREATE SCHEMA IF NOT EXISTS identity')).rejects.toThrow(/permission denied/);
    await asIdentity.end();

    // A service started before the migration step waits for its schema instead of exiting.
    const identity = start('identity');
    let identityUp = false;
    void identity.then(() => (identityUp = true));
    // It has tried (and waited) a few times by now, and is still waiting.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(identityUp).toBe(false);

    const migrate = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/local/src/migrate.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: pg.url('gatehouse_owner', passwords['owner']), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let migrateOutput = '';
    migrate.stdout!.on('data', (chunk) => (migrateOutput += chunk));
    migrate.stderr!.on('data', (chunk) => (migrateOutput += chunk));
    expect([await exited(migrate), migrateOutput]).toEqual([0, expect.any(String)]);

    services.push(await identity, ...(await Promise.all(['admin', 'access', 'billing', 'webhooks_out', 'branding'].map(start))));
    gateway = await startGatewayOverNats(namespace);

    const health = await call(gateway.url, '/api/v1/health');
    expect(health.body.services).toMatchObject(
      Object.fromEntries(['identity', 'admin', 'access', 'billing', 'webhooks-out', 'branding'].map((name) => [name, { status: 'up', checks: { database: 'up' } }])),
    );
    expect(health.status).toBe(200);

    // Each service writes its own tables under its role.
    const { session } = await adminSession(gateway.url);
    const keys = await call(gateway.url, '/api/v1/admin/api-keys', { session, body: { name: 'roles' } });
    expect(keys.status).toBe(201);
    const customer = await call(gateway.url, '/api/v1/auth/customers/register', {
      key: keys.body.publishableKey,
      body: { email: `reader-${randomUUID()}@example.com`, password: 'reader-password', name: 'Reader' },
    });
    expect(customer.status).toBe(201);
    const writes = await Promise.all([
      call(gateway.url, '/api/v1/admin/paywalls', { session, body: { name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } } }),
      call(gateway.url, '/api/v1/admin/products', { session, body: { name: 'Digital', entitlements: [] } }),
      call(gateway.url, '/api/v1/admin/webhooks', { session, body: { url: 'http://127.0.0.1:9/hook', events: ['customer.created'] } }),
      call(gateway.url, '/api/v1/branding/admin', { method: 'PUT', session, body: { brandColor: '#112233' } }),
    ]);
    expect(writes.map((answer) => answer.status)).toEqual([201, 201, 201, 200]);

    // ...and reaches no other service's.
    const identityRole = new Client({ connectionString: roleUrl('identity') });
    await identityRole.connect();
    try {
      await expect(identityRole.query('SELECT count(*) FROM admin.staff')).rejects.toThrow(/permission denied/);
      await expect(identityRole.query('CREATE TABLE identity.sneaky (id int)')).rejects.toThrow(/permission denied/);
    } finally {
      await identityRole.end();
    }
  });
});
