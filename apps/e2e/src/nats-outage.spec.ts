import { DataSource } from 'typeorm';
import { eventType, type EventEnvelope } from '@gatehouse/contracts';
import { JetStreamEventTransport, Outbox, type EventSubscription } from '@gatehouse/bus';
import { type RunningService } from '@gatehouse/runtime';
import { identityService } from '@gatehouse/identity';
import { createTestDatabase, eventually, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { call } from './support/http';
import { freePort, PrivateNatsServer } from './support/processes';
import { startGatewayOverNats, startServiceOverNats, type TestGateway } from './support/system';

const OUTAGE_MS = 60_000;
const OutageProbe = eventType<{ n: number }>('ops.outage_probe');

jest.setTimeout(240_000);

/**
 * A NATS outage of a minute, with a NATS server of the test's own: the gateway and identity stay
 * up, fail fast and report themselves unready meanwhile, and come back by themselves.
 */
describe('a NATS outage', () => {
  const namespace = uniqueNamespace('outage');
  let nats: PrivateNatsServer;
  let db: TestDatabase;
  let identity: RunningService;
  let gateway: TestGateway;
  let identityProbes: string;
  let events: JetStreamEventTransport;
  let subscription: EventSubscription;
  const delivered: EventEnvelope[] = [];

  beforeAll(async () => {
    nats = await PrivateNatsServer.start();
    db = await createTestDatabase();
    const healthPort = await freePort();
    identityProbes = `http://127.0.0.1:${healthPort}`;
    identity = await startServiceOverNats(identityService, db.url, namespace, { NATS_URL: nats.url, HEALTH_PORT: String(healthPort) });
    gateway = await startGatewayOverNats(namespace, { NATS_URL: nats.url });
    events = await JetStreamEventTransport.connect({ servers: [nats.url] }, namespace);
    subscription = await events.consume('outage-test', [OutageProbe.name], async (envelope) => {
      delivered.push(envelope);
    });
  });

  afterAll(async () => {
    await subscription?.stop();
    await events?.close();
    await gateway?.close();
    await identity?.close();
    await db?.drop();
    await nats?.destroy();
  });

  const jwks = () => call(gateway.url, '/api/v1/auth/.well-known/jwks.json');

  async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
    const started = Date.now();
    const result = await fn();
    return [result, Date.now() - started];
  }

  it('fails fast and unready during the outage, recovers within 10 s of NATS returning, and delivers what was written meanwhile exactly once', async () => {
    expect((await jwks()).status).toBe(200);
    expect((await call(gateway.url, '/readyz')).status).toBe(200);
    expect((await call(identityProbes, '/readyz')).status).toBe(200);

    await nats.stop();
    const outageStarted = Date.now();

    // The gateway and the service notice at once, and say which dependency is down.
    const gatewayReady = await eventually(async () => {
      const res = await call(gateway.url, '/readyz');
      return res.status === 503 ? res : undefined;
    });
    expect(gatewayReady.body).toMatchObject({ status: 'down', checks: { bus: 'down', events: 'down' } });
    const serviceReady = await eventually(async () => {
      const res = await call(identityProbes, '/readyz');
      return res.status === 503 ? res : undefined;
    });
    expect(serviceReady.body).toMatchObject({ status: 'down', checks: { database: 'up', bus: 'down', events: 'down' } });
    // Liveness stays up: restarting would not bring NATS back.
    expect((await call(gateway.url, '/healthz')).status).toBe(200);
    expect((await call(identityProbes, '/healthz')).status).toBe(200);

    // Identity commits a change with its event while the bus is down.
    const outbox = identity.app.get(Outbox);
    const written: string[] = [];
    for (let n = 0; n < 3; n++) {
      const envelope = await identity.app.get(DataSource).transaction((manager) => outbox.add(manager, OutageProbe, { n }, null));
      written.push(envelope.id);
    }

    // Throughout the outage callers get 503 at once rather than after the request timeout.
    while (Date.now() - outageStarted < OUTAGE_MS) {
      const [res, elapsed] = await timed(jwks);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 503, code: 'service_unavailable' });
      expect(elapsed).toBeLessThan(2_000);
      const [health] = await timed(() => call(gateway.url, '/api/v1/health'));
      expect(health.status).toBe(503);
      expect(health.body.services.gateway).toMatchObject({ status: 'down', checks: { bus: 'down' } });
      await new Promise((r) => setTimeout(r, 5_000));
    }
    expect(delivered).toHaveLength(0);

    await nats.resume();
    const returned = Date.now();
    await eventually(async () => ((await jwks()).status === 200 ? true : undefined), 10_000);
    expect(Date.now() - returned).toBeLessThan(10_000);
    await eventually(async () => ((await call(gateway.url, '/readyz')).status === 200 ? true : undefined), 10_000);
    await eventually(async () => ((await call(identityProbes, '/readyz')).status === 200 ? true : undefined), 10_000);

    await eventually(() => (delivered.length >= written.length ? true : undefined), 20_000);
    // Give a duplicate time to show up before counting.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(delivered.map((e) => e.id).sort()).toEqual([...written].sort());
  });
});
