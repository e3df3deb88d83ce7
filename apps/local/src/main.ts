import { InProcessHub, busTransportFromConfig } from '@gatehouse/bus';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@gatehouse/db';
import { startLocalExamplePublisher } from '@gatehouse/example-publisher';
import { dashboardDirectory, GatewayConfig, gatewayEdge } from '@gatehouse/gateway';
import { loadConfig, randomToken, runMain, ServiceConfig } from '@gatehouse/platform';
import { createHttpProcess, startService, type RunningService } from '@gatehouse/runtime';
import type { AddressInfo } from 'node:net';
import { DemoSite, LOCAL_PROCESSOR_KEY, startLocalProcessor } from './demo/demo-site';
import { SERVICES } from './services';

/** Where `npm start` listens: this machine only, unless HOST says otherwise. */
const HOST = process.env['HOST'] || '127.0.0.1';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * Demo values for a first look on a bare machine (decisions A3); real deployments set their own.
 * The admin password is generated, never a fixed one anybody could try, and webhooks may reach
 * local http:// receivers only while nothing but this machine can reach the API.
 */
const DEMO_DEFAULTS: Record<string, string> = {
  BOOTSTRAP_ADMIN_EMAIL: 'admin@example.com',
  BOOTSTRAP_ADMIN_PASSWORD: randomToken(12),
  BOOTSTRAP_PUBLICATION_NAME: 'Demo Gazette',
  BOOTSTRAP_PUBLICATION_DOMAINS: 'localhost,127.0.0.1',
  ...(LOOPBACK.has(HOST) ? { ALLOW_INSECURE_WEBHOOK_URLS: 'true' } : {}),
};

/**
 * The whole system in one process: every service on the in-process bus (or on NATS when NATS_URL
 * is set) and PostgreSQL from DATABASE_URL, else an embedded one under DATA_DIR.
 */
runMain(async () => {
  const demo = Object.keys(DEMO_DEFAULTS).filter((name) => !process.env[name]);
  for (const name of demo) process.env[name] = DEMO_DEFAULTS[name];
  // No processor configured: the local fake stands in, so the demo's checkout completes (docs/elements.md).
  const localProcessor = !process.env['PROCESSOR_API_URL'] && process.env['LOCAL_FAKE_PROCESSOR'] !== 'false' ? await startLocalProcessor() : undefined;
  if (localProcessor) {
    process.env['PROCESSOR_API_URL'] = localProcessor.url;
    process.env['LOCAL_PROCESSOR_KEY'] = LOCAL_PROCESSOR_KEY;
  }
  // Billing names this address to the processor for its webhooks: the port this process listens on.
  process.env['PUBLIC_BASE_URL'] ??= `http://localhost:${process.env['PORT'] ?? 3000}`;
  const base = loadConfig(ServiceConfig);
  const gatewayConfig = loadConfig(GatewayConfig);
  const configs = SERVICES.map((definition) => loadConfig(definition.config));

  const embedded = base.DATABASE_URL ? undefined : await startEmbeddedPostgres(base.DATA_DIR, SERVICES.length);
  const databaseUrl = base.DATABASE_URL ?? (embedded as EmbeddedDatabase).url;
  const transport = busTransportFromConfig(base, () => new InProcessHub());
  // One role for everything here: each service brings its schema to this release's version first.
  const services: RunningService[] = await Promise.all(
    SERVICES.map((definition, i) => startService(definition, { config: configs[i], transport, databaseUrl, migrate: true })),
  );
  const edge = await createHttpProcess('gateway', { config: gatewayConfig, transport, edge: gatewayEdge });
  const gateway = edge.app;
  const demoSite = new DemoSite(gateway, new URL(gatewayConfig.PUBLIC_BASE_URL ?? `http://localhost:${gatewayConfig.PORT}`).origin);
  await edge.listen(gatewayConfig.PORT, HOST);

  const url = (gatewayConfig.PUBLIC_BASE_URL ?? `http://localhost:${gatewayConfig.PORT}`).replace(/\/$/, '');
  console.log(`Gatehouse is running on ${HOST}:${gatewayConfig.PORT} (set HOST to listen elsewhere). API docs: ${url}/docs`);
  console.log(dashboardDirectory(gatewayConfig) ? `Dashboard: ${url}/dashboard/` : 'Dashboard: not built yet (npm run build:web), so /dashboard is not served.');
  // The example publisher's own server (docs/server.md) beside the gateway, on EXAMPLE_PORT (default PORT + 100).
  const examplePort = Number(process.env['EXAMPLE_PORT'] ?? gatewayConfig.PORT + 100);
  const example = await startLocalExamplePublisher({
    gatewayUrl: `http://127.0.0.1:${(gateway.getHttpServer().address() as AddressInfo).port}`,
    admin: { email: process.env['BOOTSTRAP_ADMIN_EMAIL'] ?? '', password: process.env['BOOTSTRAP_ADMIN_PASSWORD'] ?? '' },
    dataDir: base.DATA_DIR,
    host: HOST,
    port: examplePort,
  }).then(
    (server) => (console.log(`Example publisher (server-side paywall): http://localhost:${(server.address() as AddressInfo).port}/`), server),
    (err: unknown) => console.warn(`Example publisher not available: ${err instanceof Error ? err.message : String(err)}`),
  );
  if (!process.env['SMTP_URL']) {
    console.log(`No SMTP_URL: account email (password resets, sign-in codes) is kept in the local mailbox: GET ${url}/api/v1/admin/mailbox with a staff session.`);
  }
  if (demo.includes('BOOTSTRAP_ADMIN_PASSWORD')) {
    console.log(
      `Demo dashboard login, generated for this start (used only while no staff exists): ${process.env['BOOTSTRAP_ADMIN_EMAIL']} / ${DEMO_DEFAULTS['BOOTSTRAP_ADMIN_PASSWORD']}` +
        ` at ${url}/dashboard/ (or POST ${url}/api/v1/admin/session). Set the BOOTSTRAP_* variables to choose your own.`,
    );
  }
  // Printed after the lines above: the demo's line tells a waiting test that start-up has finished.
  const admin = { email: process.env['BOOTSTRAP_ADMIN_EMAIL'] ?? '', password: process.env['BOOTSTRAP_ADMIN_PASSWORD'] ?? '' };
  await demoSite.seed(`http://127.0.0.1:${(gateway.getHttpServer().address() as AddressInfo).port}`, admin, base.DATA_DIR, localProcessor !== undefined).then(
    () => console.log(`Demo publisher site: ${url}/demo/${localProcessor ? ` (payments go to the local fake processor at ${localProcessor.url}: no real money moves)` : ''}`),
    (err: unknown) => console.warn(`Demo publisher site not available: ${err instanceof Error ? err.message : String(err)}`),
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    example?.close();
    await edge.close();
    await Promise.all(services.map((s) => s.close()));
    await embedded?.stop();
    localProcessor?.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
});
