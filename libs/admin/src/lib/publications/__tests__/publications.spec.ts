import { AdminRequests, type CreatedSession } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import { AdminHarness, BOOTSTRAP } from '../../__tests__/admin-harness';

jest.setTimeout(30_000);

describe('publications', () => {
  const harness = new AdminHarness();
  let admin: CreatedSession;
  const createPublication = (name: string, domains: string[] = [], staffId = admin.staff.id) =>
    harness.request(AdminRequests.CreatePublication, { staffId, name, domains });
  const update = (changes: { publicationId: string; name?: string; domains?: string[]; selfRegistration?: boolean }, staffId = admin.staff.id) =>
    harness.request(AdminRequests.UpdatePublication, { staffId, ...changes });

  beforeAll(async () => {
    await harness.start();
    admin = await harness.request(AdminRequests.CreateSession, { email: BOOTSTRAP.email, password: BOOTSTRAP.password });
  });
  afterAll(() => harness.close());

  it('makes the creator its admin, with its domains trimmed, lower-cased and without duplicates', async () => {
    const created = await createPublication('The Planet', [' Planet.EXAMPLE ', '*.planet.example', 'planet.example', '']);
    expect(created).toEqual({ id: expect.any(String), name: 'The Planet', domains: ['planet.example', '*.planet.example'], selfRegistration: true, verifiedDomains: [], role: 'admin' });
    const { publications } = await harness.request(AdminRequests.ListPublications, { staffId: admin.staff.id });
    expect(publications).toContainEqual(created);
  });

  it('counts loopback hosts as verified without proof, and no other domain until its owner proves it', async () => {
    const local = await createPublication('Local', ['localhost', 'news.localhost', '127.0.0.1', 'local-news.example']);
    expect(local.verifiedDomains).toEqual(['localhost', 'news.localhost', '127.0.0.1']);
    await expect(harness.request(AdminRequests.GetPublication, { publicationId: local.id })).resolves.toMatchObject({ verifiedDomains: local.verifiedDomains });
  });

  it("lists only the caller's publications, oldest membership first", async () => {
    harness.clock.advance(1_000);
    const later = await createPublication('Aardvark Weekly');
    const { publications } = await harness.request(AdminRequests.ListPublications, { staffId: admin.staff.id });
    expect(publications[0]).toEqual(admin.publication);
    expect(publications.at(-1)).toEqual(later);
    await expect(harness.request(AdminRequests.ListPublications, { staffId: randomUUID() })).resolves.toEqual({ publications: [] });
  });

  it('lets an admin rename it and change its domains', async () => {
    const created = await createPublication('Draft', ['draft.example']);
    const renamed = await update({ publicationId: created.id, name: 'Final' });
    expect(renamed).toEqual({ ...created, name: 'Final' });
    const moved = await update({ publicationId: created.id, domains: ['Final.example', 'final.example '] });
    expect(moved).toEqual({ ...created, name: 'Final', domains: ['final.example'] });
    const { publications } = await harness.request(AdminRequests.ListPublications, { staffId: admin.staff.id });
    expect(publications).toContainEqual(moved);
  });

  it('lets an admin close self-registration and open it again', async () => {
    const created = await createPublication('Members Only', ['members.example']);
    expect(await update({ publicationId: created.id, selfRegistration: false })).toEqual({ ...created, selfRegistration: false });
    await expect(harness.request(AdminRequests.GetPublication, { publicationId: created.id })).resolves.toMatchObject({ selfRegistration: false });
    expect(await update({ publicationId: created.id, name: 'Members' })).toEqual({ ...created, name: 'Members', selfRegistration: false });
    expect(await update({ publicationId: created.id, selfRegistration: true })).toEqual({ ...created, name: 'Members' });
  });

  it('refuses a viewer with 403 forbidden and a non-member with 404', async () => {
    const viewerId = await harness.addStaff('reader@example.com', 'reader password', admin.publication.id, 'viewer');
    await expect(update({ publicationId: admin.publication.id, name: 'Hijacked' }, viewerId)).rejects.toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    const outsider = await createPublication('Own Blog', [], viewerId);
    await expect(update({ publicationId: outsider.id, name: 'Mine now' })).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(update({ publicationId: 'nope', name: 'x' })).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const { publications } = await harness.request(AdminRequests.ListPublications, { staffId: admin.staff.id });
    expect(publications.find((p) => p.id === admin.publication.id)?.name).toBe(BOOTSTRAP.publicationName);
  });
});
