import { AdminRequests, type CreatedSession, type StaffActor } from '@gatehouse/contracts';
import { sha256Hex } from '@gatehouse/platform';
import { AdminHarness, BOOTSTRAP } from '../../__tests__/admin-harness';

jest.setTimeout(30_000);

describe('team', () => {
  const harness = new AdminHarness();
  let owner: CreatedSession;
  let actor: StaffActor;
  const invite = (email: string, role: 'admin' | 'editor' | 'viewer', as: StaffActor = actor) => harness.request(AdminRequests.InviteStaff, { actor: as, email, role });
  const accept = (token: string, password = 'invitee password') =>
    harness.request(AdminRequests.AcceptInvitation, { tokenHash: sha256Hex(token), name: 'Invitee', password });

  beforeAll(async () => {
    await harness.start();
    owner = await harness.request(AdminRequests.CreateSession, { email: BOOTSTRAP.email, password: BOOTSTRAP.password });
    actor = { staffId: owner.staff.id, publicationId: owner.publication.id, role: 'admin' };
  });
  afterAll(() => harness.close());

  it('invites by email with a single-use link whose token is stored only hashed, and the invitee signs in with the new password', async () => {
    const invitation = await invite(' Viewer@Example.com ', 'viewer');
    // No identity runs beside admin here: the email cannot be queued, and the answer says so (the e2e tests see it sent).
    expect(invitation).toMatchObject({ email: 'viewer@example.com', role: 'viewer', invitedBy: owner.staff.email, token: expect.any(String), emailed: false });
    expect(new Date(invitation.expiresAt).getTime() - new Date(invitation.createdAt).getTime()).toBe(7 * 24 * 3600 * 1000);
    const rows = await harness.query<{ token_hash: string }>('SELECT token_hash FROM invitations WHERE id = $1', [invitation.id]);
    expect(rows[0].token_hash).toBe(sha256Hex(invitation.token));
    await expect(harness.request(AdminRequests.GetInvitation, { tokenHash: sha256Hex(invitation.token) })).resolves.toEqual({
      email: 'viewer@example.com',
      role: 'viewer',
      publicationName: BOOTSTRAP.publicationName,
    });

    harness.clock.advance(1_000);
    await expect(accept(invitation.token)).resolves.toEqual({ email: 'viewer@example.com', publicationId: actor.publicationId });
    await expect(accept(invitation.token)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const session = await harness.request(AdminRequests.CreateSession, { email: 'viewer@example.com', password: 'invitee password' });
    expect(session.publication).toMatchObject({ id: actor.publicationId, role: 'viewer' });

    const team = await harness.request(AdminRequests.ListTeam, { actor });
    expect(team.members.map((m) => [m.email, m.role])).toEqual([
      [owner.staff.email, 'admin'],
      ['viewer@example.com', 'viewer'],
    ]);
    expect(team.invitations).toEqual([]);
    expect(team.log.map((c) => [c.action, c.actor, c.subject])).toEqual([
      ['joined', 'viewer@example.com', 'viewer@example.com'],
      ['invited', owner.staff.email, 'viewer@example.com'],
    ]);
  });

  it('lets a link expire after 7 days and a revoked one stop working', async () => {
    const late = await invite('late@example.com', 'editor');
    harness.clock.advance(7 * 24 * 3600 * 1000 + 1);
    await expect(accept(late.token)).rejects.toMatchObject({ status: 404 });
    const revoked = await invite('revoked@example.com', 'editor');
    await harness.request(AdminRequests.RevokeInvitation, { actor, invitationId: revoked.id });
    await expect(accept(revoked.token)).rejects.toMatchObject({ status: 404 });
    await expect(invite(owner.staff.email, 'viewer')).rejects.toMatchObject({ status: 409, code: 'conflict' });
  });

  it('lets only owners change the team, and never removes or demotes the last owner', async () => {
    const editor = await invite('writer@example.com', 'editor');
    await accept(editor.token);
    const team = await harness.request(AdminRequests.ListTeam, { actor });
    const editorId = team.members.find((m) => m.email === 'writer@example.com')!.id;
    const asEditor: StaffActor = { staffId: editorId, publicationId: actor.publicationId, role: 'editor' };
    await expect(invite('x@example.com', 'viewer', asEditor)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    await expect(harness.request(AdminRequests.RemoveMember, { actor: asEditor, staffId: owner.staff.id })).rejects.toMatchObject({ status: 403 });

    await expect(harness.request(AdminRequests.ChangeRole, { actor, staffId: owner.staff.id, role: 'viewer' })).rejects.toMatchObject({ status: 409, code: 'conflict' });
    await expect(harness.request(AdminRequests.RemoveMember, { actor, staffId: owner.staff.id })).rejects.toMatchObject({ status: 409 });

    harness.clock.advance(1_000);
    await expect(harness.request(AdminRequests.ChangeRole, { actor, staffId: editorId, role: 'admin' })).resolves.toMatchObject({ role: 'admin' });
    harness.clock.advance(1_000);
    await harness.request(AdminRequests.RemoveMember, { actor, staffId: editorId });
    const after = await harness.request(AdminRequests.ListTeam, { actor });
    expect(after.members.map((m) => m.email)).not.toContain('writer@example.com');
    expect(after.log.slice(0, 2).map((c) => [c.action, c.actor, c.subject, c.role])).toEqual([
      ['removed', owner.staff.email, 'writer@example.com', 'admin'],
      ['role_changed', owner.staff.email, 'writer@example.com', 'admin'],
    ]);
  });

  it("never reaches into another publication's team: its members and invitations are not found", async () => {
    const other = await harness.request(AdminRequests.CreatePublication, { staffId: owner.staff.id, name: 'Other Gazette', domains: ['other.example'] });
    const otherActor: StaffActor = { staffId: owner.staff.id, publicationId: other.id, role: 'admin' };
    const stranger = await invite('stranger@example.com', 'editor', otherActor);
    await accept(stranger.token, 'stranger password');
    const strangerId = (await harness.request(AdminRequests.ListTeam, { actor: otherActor })).members.find((m) => m.email === 'stranger@example.com')!.id;
    const pending = await invite('pending@example.com', 'viewer', otherActor);

    await expect(harness.request(AdminRequests.RemoveMember, { actor, staffId: strangerId })).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(harness.request(AdminRequests.ChangeRole, { actor, staffId: strangerId, role: 'admin' })).rejects.toMatchObject({ status: 404 });
    await expect(harness.request(AdminRequests.RevokeInvitation, { actor, invitationId: pending.id })).rejects.toMatchObject({ status: 404 });
    const mine = await harness.request(AdminRequests.ListTeam, { actor });
    expect(mine.members.map((m) => m.email)).not.toContain('stranger@example.com');
    expect(mine.invitations.map((i) => i.email)).not.toContain('pending@example.com');
    expect(mine.log.map((c) => c.subject)).not.toContain('stranger@example.com');
  });
});
