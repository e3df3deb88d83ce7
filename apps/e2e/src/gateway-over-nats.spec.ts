import type { RunningService } from '@gatehouse/runtime';
import { identityService } from '@gatehouse/identity';
import { createTestDatabase, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { startGatewayOverNats, startServiceOverNats, type TestGateway } from './support/system';

/**
 * The real topology: the gateway and identity as separate Nest applications, talking over the
 * machine's NATS, identity on its own PostgreSQL schema.
 */
describe('gateway and a service over NATS', () => {
  const namespace = uniqueNamespace();
  let db: TestDatabase;
  let identity: RunningService | undefined;
  let gateway: TestGateway;

  beforeAll(async () => {
    db = await createTestDatabase();
    identity = await startServiceOverNats(identityService, db.url, namespace);
    gateway = await startGatewayOverNats(namespace);
  });

  afterAll(async () => {
    await gateway?.close();
    await identity?.close();
    await db?.drop();
  });

  it('carries an HTTP request through the gateway to the service and back', async () => {
    const res = await fetch(`${gateway.url}/api/v1/auth/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/.+/);
    const body = (await res.json()) as { keys: Array<Record<string, string>> };
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(body.keys[0]['kid']).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.keys[0]).not.toHaveProperty('d');
  });

  it('keeps the same signing key when the service restarts', async () => {
    const before = await (await fetch(`${gateway.url}/api/v1/auth/.well-known/jwks.json`)).json();
    await identity!.close();
    identity = await startServiceOverNats(identityService, db.url, namespace);
    const after = await (await fetch(`${gateway.url}/api/v1/auth/.well-known/jwks.json`)).json();
    expect(after).toEqual(before);
  });

  it('echoes a caller-supplied X-Request-Id', async () => {
    const res = await fetch(`${gateway.url}/api/v1/auth/.well-known/jwks.json`, { headers: { 'X-Request-Id': 'trace-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
  });

  it('reports the running service up and the others down in health', async () => {
    const res = await fetch(`${gateway.url}/api/v1/health`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { status: string; services: Record<string, { status: string; checks?: object }> };
    expect(body.status).toBe('down');
    expect(body.services['gateway']).toEqual({ status: 'up', checks: { bus: 'up', events: 'up' } });
    expect(body.services['identity']).toEqual({ status: 'up', checks: { database: 'up', bus: 'up', events: 'up' } });
    expect(body.services['billing']).toEqual({ status: 'down' });
  });

  it('answers 503 service_unavailable within about 5 s once the service is stopped', async () => {
    await identity!.close();
    identity = undefined;
    const started = Date.now();
    const res = await fetch(`${gateway.url}/api/v1/auth/.well-known/jwks.json`);
    const elapsed = Date.now() - started;
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({ status: 503, code: 'service_unavailable', title: 'Service unavailable' });
    expect(elapsed).toBeLessThan(6_500);
  });

  it('answers an unknown route with a problem-details 404', async () => {
    const res = await fetch(`${gateway.url}/api/v1/no-such-route`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({ status: 404, code: 'not_found' });
  });
});
