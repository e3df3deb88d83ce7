import { AdminRequests, type CreatedSession } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import { AdminHarness, BOOTSTRAP, sha256 } from '../../__tests__/admin-harness';

jest.setTimeout(30_000);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('admin sessions', () => {
  const harness = new AdminHarness();
  const signIn = (email = BOOTSTRAP.email, password = BOOTSTRAP.password) =>
    harness.request(AdminRequests.CreateSession, { email, password });
  const resolve = (session: CreatedSession) => harness.request(AdminRequests.ResolveSession, { tokenHash: sha256(session.token) });
  const sessionIdOf = async (session: CreatedSession) => (await resolve(session))!.sessionId;
  const createPublication = (staffId: string, name: string) =>
    harness.request(AdminRequests.CreatePublication, { staffId, name, domains: [`${name.replace(/\W/g, '').toLowerCase()}.example`] });

  beforeAll(() => harness.start());
  afterAll(() => harness.close());

  it('issues an opaque 256-bit token that ends at the latest 7 days later, and stores only its hash', async () => {
    const session = await signIn();
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.expiresAt).toBe(new Date(harness.clock.now().getTime() + 7 * DAY).toISOString());
    const stored = await harness.query<{ token_hash: string }>('SELECT token_hash FROM sessions');
    expect(stored.map((row) => row.token_hash)).toContain(sha256(session.token));
    expect(JSON.stringify(stored)).not.toContain(session.token);
  });

  it('resolves a token to the staff member, their current publication and role', async () => {
    const session = await signIn();
    expect(await resolve(session)).toEqual({
      sessionId: expect.any(String),
      staffId: session.staff.id,
      publicationId: session.publication.id,
      role: 'admin',
    });
  });

  it('resolves an unknown token to null', async () => {
    await expect(harness.request(AdminRequests.ResolveSession, { tokenHash: sha256('no such token') })).resolves.toBeNull();
  });

  it('ends after 12 hours without use', async () => {
    const session = await signIn();
    harness.clock.advance(12 * HOUR - MINUTE);
    expect(await resolve(session)).not.toBeNull();
    harness.clock.advance(12 * HOUR + MINUTE);
    expect(await resolve(session)).toBeNull();
  });

  it('ends after 7 days however often it is used', async () => {
    const session = await signIn();
    for (let used = 0; used < 7 * DAY - 6 * HOUR; used += 6 * HOUR) {
      harness.clock.advance(6 * HOUR);
      expect(await resolve(session)).not.toBeNull();
    }
    harness.clock.advance(6 * HOUR);
    expect(harness.clock.now().toISOString()).toBe(session.expiresAt);
    expect(await resolve(session)).toBeNull();
  });

  it('is revoked by deleting it', async () => {
    const session = await signIn();
    const sessionId = await sessionIdOf(session);
    await expect(harness.request(AdminRequests.DeleteSession, { sessionId })).resolves.toEqual({ deleted: true });
    expect(await resolve(session)).toBeNull();
    await expect(harness.request(AdminRequests.GetSession, { sessionId })).rejects.toMatchObject({ status: 401, code: 'session_required' });
    await expect(harness.request(AdminRequests.DeleteSession, { sessionId })).resolves.toEqual({ deleted: true });
  });

  it('shows the staff member, the current publication and all their publications', async () => {
    const session = await signIn();
    const second = await createPublication(session.staff.id, 'Evening Post');
    const view = await harness.request(AdminRequests.GetSession, { sessionId: await sessionIdOf(session) });
    expect(view).toEqual({
      staff: { id: session.staff.id, email: 'editor@example.com', name: 'Editor' },
      publication: {
        id: session.publication.id,
        name: BOOTSTRAP.publicationName,
        domains: ['bugle.example', '*.bugle.example'],
        selfRegistration: true,
        verifiedDomains: [],
        role: 'admin',
      },
      publications: [session.publication, second],
    });
  });

  it('switches to another publication of the staff member, and on to its role', async () => {
    const admin = await signIn();
    const other = await createPublication(admin.staff.id, 'Morning Star');
    await harness.addStaff('viewer@example.com', 'viewer password', admin.publication.id, 'viewer');
    const viewer = await signIn('viewer@example.com', 'viewer password');
    expect(await resolve(viewer)).toMatchObject({ publicationId: admin.publication.id, role: 'viewer' });

    const viewerSwitch = { sessionId: await sessionIdOf(viewer), publicationId: other.id };
    await expect(harness.request(AdminRequests.SwitchPublication, viewerSwitch)).rejects.toMatchObject({ status: 404, code: 'not_found' });

    const view = await harness.request(AdminRequests.SwitchPublication, { sessionId: await sessionIdOf(admin), publicationId: other.id });
    expect(view.publication).toEqual(other);
    expect(await resolve(admin)).toMatchObject({ publicationId: other.id, role: 'admin' });
  });

  it('answers 404 for switching to a publication that does not exist', async () => {
    const sessionId = await sessionIdOf(await signIn());
    for (const publicationId of [randomUUID(), 'not-a-uuid']) {
      const attempt = harness.request(AdminRequests.SwitchPublication, { sessionId, publicationId });
      await expect(attempt).rejects.toMatchObject({ code: 'not_found' });
    }
  });

  it('stops resolving once the staff member loses their role in the current publication', async () => {
    const admin = await signIn();
    const shared = await createPublication(admin.staff.id, 'Shared Desk');
    await harness.addStaff('leaver@example.com', 'leaver password', shared.id, 'viewer');
    const leaver = await signIn('leaver@example.com', 'leaver password');
    expect(await resolve(leaver)).toMatchObject({ publicationId: shared.id, role: 'viewer' });
    await harness.query('DELETE FROM memberships WHERE staff_id = $1', [leaver.staff.id]);
    expect(await resolve(leaver)).toBeNull();
  });
});
