import { randomUUID } from 'node:crypto';
import { call } from './support/http';
import { AccessSystem } from './support/access';
import { adminSession } from './support/staff';
import { startGatewayOverNats, type TestGateway } from './support/system';
import { eventually } from '@gatehouse/testing';

/** A publication's domains decide which pages its keys may check: changes apply at once, and no two publications share one. */
describe('publication domains', () => {
  let system: AccessSystem;
  let second: TestGateway;

  beforeAll(async () => {
    system = await AccessSystem.start();
    second = await startGatewayOverNats(system.namespace);
  }, 120_000);

  afterAll(async () => {
    await second?.close();
    await system?.close();
  });

  const checkOn = (base: string, host: string) =>
    call(base, `/api/v1/access/check?url=${encodeURIComponent(`https://${host}/story`)}`, { key: system.publishableKey });

  it('applies a change of domains to the next check, on this gateway and on the others', async () => {
    const fresh = `fresh-${randomUUID()}.example`;
    // Both gateways have the key, and with it the old domains, cached.
    for (const base of [system.url, second.url]) {
      expect((await checkOn(base, 'news.example.com')).status).toBe(200);
      expect((await checkOn(base, fresh)).body).toMatchObject({ status: 403, code: 'url_not_in_publication' });
    }
    const changed = await system.admin(`/admin/publications/${system.publicationId}`, { method: 'PATCH', body: { domains: [fresh] } });
    expect(changed.status).toBe(200);

    expect((await checkOn(system.url, fresh)).status).toBe(200);
    expect((await checkOn(system.url, 'news.example.com')).body).toMatchObject({ code: 'url_not_in_publication' });
    // The other replica hears of it over the bus, well within the minute its cache would have kept the key.
    await eventually(async () => ((await checkOn(second.url, fresh)).status === 200 ? true : undefined), 5_000);
    expect((await checkOn(second.url, 'news.example.com')).body).toMatchObject({ code: 'url_not_in_publication' });

    await system.admin(`/admin/publications/${system.publicationId}`, { method: 'PATCH', body: { domains: ['news.example.com', '*.blog.example'] } });
  });

  it("refuses a publication claiming another publication's domain with 409, on creation and on change", async () => {
    const { session } = await adminSession(system.url);
    const claimed = await call(system.url, '/api/v1/admin/publications', { session, body: { name: 'Squatter', domains: ['News.Example.com'] } });
    expect(claimed.body).toMatchObject({ status: 409, code: 'conflict', errors: [{ field: 'domains' }] });

    const own = await call(system.url, '/api/v1/admin/publications', { session, body: { name: 'Neighbour', domains: [`neighbour-${randomUUID()}.example`] } });
    expect(own.status).toBe(201);
    const changed = await call(system.url, `/api/v1/admin/publications/${own.body.id}`, { method: 'PATCH', session, body: { domains: ['*.blog.example'] } });
    expect(changed.body).toMatchObject({ status: 409, code: 'conflict' });
  });

  it('refuses public suffixes and wildcards over them (400), and domains overlapping another publication\'s wildcard or under it (409)', async () => {
    const { session } = await adminSession(system.url);
    const create = (domains: string[]) => call(system.url, '/api/v1/admin/publications', { session, body: { name: 'Claimant', domains } });
    for (const domains of [['com'], ['*.com'], ['*.example'], ['co.uk'], ['*.github.io']]) {
      expect({ domains, answer: (await create(domains)).body }).toMatchObject({ domains, answer: { status: 400, code: 'validation_failed', errors: [{ field: 'domains' }] } });
    }
    // This publication has news.example.com and *.blog.example.
    for (const domains of [['*.example.com'], ['x.blog.example'], ['*.deep.blog.example']]) {
      expect({ domains, answer: (await create(domains)).body }).toMatchObject({ domains, answer: { status: 409, code: 'conflict', errors: [{ field: 'domains' }] } });
    }
    // Neighbours stay possible: the apex under a wildcard is not covered by it (decisions A1), nor a sibling.
    expect((await create([`blog.example`, `sibling-${randomUUID()}.example.com`])).status).toBe(201);
  });
});
