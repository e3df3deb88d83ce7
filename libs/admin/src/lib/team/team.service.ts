import { Injectable, Logger } from '@nestjs/common';
import {
  STAFF_INVITATION_TTL_MINUTES,
  StaffEmailRequests,
  type CreatedInvitation,
  type InvitationAcceptance,
  type InvitationPreview,
  type InvitationView,
  type StaffActor,
  type StaffRole,
  type TeamChangeAction,
  type TeamMemberView,
  type TeamView,
} from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError, Clock, isUuid, randomToken, sha256Hex } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull, MoreThan, type EntityManager } from 'typeorm';
import { Membership } from '../publications/membership.entity';
import { Publication } from '../publications/publication.entity';
import { AdminConfig } from '../admin.config';
import { StaffLoginThrottle } from '../staff/staff-login-throttle.service';
import { normaliseEmail, Staff } from '../staff/staff.entity';
import { StaffService } from '../staff/staff.service';
import { Invitation } from './invitation.entity';
import { TeamChange } from './team-change.entity';

export const INVITATION_LIFETIME_MS = STAFF_INVITATION_TTL_MINUTES * 60_000;
/** Where the dashboard's accept page is, on the public address (the email's link adds `#token=…`). */
const ACCEPT_PATH = '/dashboard/invitation';
const LOCAL_BASE_URL = 'http://localhost:3000';
const LOG_LENGTH = 50;

/** A publication's staff: members and their roles, invitations, and the log of every change. */
@Injectable()
export class TeamService {
  private readonly logger = new Logger(TeamService.name);
  private readonly acceptUrl: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly staff: StaffService,
    private readonly throttle: StaffLoginThrottle,
    private readonly bus: BusClient,
    config: AdminConfig,
  ) {
    this.acceptUrl = `${(config.PUBLIC_BASE_URL ?? LOCAL_BASE_URL).replace(/\/+$/, '')}${ACCEPT_PATH}`;
  }

  async view(actor: StaffActor): Promise<TeamView> {
    const { publicationId } = actor;
    const members = await this.dataSource
      .getRepository(Membership)
      .createQueryBuilder('m')
      .innerJoinAndMapOne('m.staff', Staff, 's', 's.id = m.staff_id')
      .where('m.publication_id = :publicationId', { publicationId })
      .orderBy('m.created_at', 'ASC')
      .getMany();
    const invitations = await this.dataSource.getRepository(Invitation).find({
      where: { publicationId, acceptedAt: IsNull(), revokedAt: IsNull(), expiresAt: MoreThan(this.clock.now()) },
      order: { createdAt: 'DESC' },
    });
    const inviters = await this.emailsOf(invitations.map((i) => i.invitedBy));
    const log = await this.dataSource.getRepository(TeamChange).find({ where: { publicationId }, order: { createdAt: 'DESC' }, take: LOG_LENGTH });
    return {
      members: members.map((m) => memberView((m as Membership & { staff: Staff }).staff, m)),
      invitations: invitations.map((i) => invitationView(i, inviters.get(i.invitedBy) ?? '')),
      log: log.map((c) => ({ id: c.id, action: c.action, actor: c.actorEmail, subject: c.subjectEmail, role: c.role, at: c.createdAt.toISOString() })),
    };
  }

  async invite(actor: StaffActor, email: string, role: StaffRole): Promise<CreatedInvitation> {
    const owner = await this.requireOwner(actor);
    const address = normaliseEmail(email);
    const token = randomToken();
    const now = this.clock.now();
    const invitation = await this.dataSource.transaction(async (manager) => {
      const member = await manager
        .getRepository(Membership)
        .createQueryBuilder('m')
        .innerJoin(Staff, 's', 's.id = m.staff_id')
        .where('m.publication_id = :publicationId AND s.email = :address', { publicationId: actor.publicationId, address })
        .getExists();
      if (member) throw new AppError('conflict', `${address} is already a member of this publication.`);
      const created = manager.create(Invitation, {
        id: randomUUID(),
        publicationId: actor.publicationId,
        email: address,
        role,
        tokenHash: sha256Hex(token),
        invitedBy: owner.id,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
        acceptedAt: null,
        revokedAt: null,
      });
      await manager.insert(Invitation, created);
      await this.record(manager, actor.publicationId, 'invited', owner.email, address, role);
      return created;
    });
    return { ...invitationView(invitation, owner.email), token, emailed: await this.email(invitation, token) };
  }

  /**
   * Hands the invitation's email to identity's durable email queue (sent in the publication's
   * branding). An identity that does not answer leaves the invitation valid and says so: the
   * inviter passes the link on.
   */
  private async email(invitation: Invitation, token: string): Promise<boolean> {
    const { id: invitationId, publicationId, email: to } = invitation;
    try {
      await this.bus.request(StaffEmailRequests.SendInvitation, { publicationId, invitationId, to, acceptUrl: this.acceptUrl, token });
      return true;
    } catch (err) {
      this.logger.warn({ publicationId, invitationId, err: err instanceof Error ? err.message : String(err) }, 'the invitation email could not be queued');
      return false;
    }
  }

  async revokeInvitation(actor: StaffActor, invitationId: string): Promise<void> {
    const owner = await this.requireOwner(actor);
    await this.dataSource.transaction(async (manager) => {
      const invitation = isUuid(invitationId)
        ? await manager.findOneBy(Invitation, { id: invitationId, publicationId: actor.publicationId, acceptedAt: IsNull(), revokedAt: IsNull() })
        : null;
      if (!invitation) throw new AppError('not_found', 'No such open invitation.');
      await manager.update(Invitation, invitation.id, { revokedAt: this.clock.now() });
      await this.record(manager, actor.publicationId, 'invitation_revoked', owner.email, invitation.email, invitation.role);
    });
  }

  async changeRole(actor: StaffActor, staffId: string, role: StaffRole): Promise<TeamMemberView> {
    const owner = await this.requireOwner(actor);
    return this.dataSource.transaction(async (manager) => {
      const { membership, staff } = await this.lockedMember(manager, actor.publicationId, staffId);
      if (membership.role === 'admin' && role !== 'admin') await this.keepAnOwner(manager, actor.publicationId);
      await manager.update(Membership, { staffId, publicationId: actor.publicationId }, { role });
      await this.record(manager, actor.publicationId, 'role_changed', owner.email, staff.email, role);
      return memberView(staff, { ...membership, role });
    });
  }

  async remove(actor: StaffActor, staffId: string): Promise<void> {
    const owner = await this.requireOwner(actor);
    await this.dataSource.transaction(async (manager) => {
      const { membership, staff } = await this.lockedMember(manager, actor.publicationId, staffId);
      if (membership.role === 'admin') await this.keepAnOwner(manager, actor.publicationId);
      await manager.delete(Membership, { staffId, publicationId: actor.publicationId });
      await this.record(manager, actor.publicationId, 'removed', owner.email, staff.email, membership.role);
    });
  }

  async describe(tokenHash: string): Promise<InvitationPreview> {
    const invitation = await this.openInvitation(this.dataSource.manager, tokenHash);
    const publication = await this.dataSource.getRepository(Publication).findOneByOrFail({ id: invitation.publicationId });
    return { email: invitation.email, role: invitation.role, publicationName: publication.name };
  }

  /**
   * Single use: the row is locked, so two acceptances of one link cannot both succeed. An existing
   * account joins only through its own signed-in session: a password is not checked here, so the
   * link is no oracle for it, and each such try counts as a failed sign-in of that email.
   */
  async accept(acceptance: InvitationAcceptance): Promise<{ email: string; publicationId: string }> {
    return this.dataSource.transaction(async (manager) => {
      const invitation = await this.openInvitation(manager, acceptance.tokenHash, true);
      const staff = 'staffId' in acceptance ? await this.signedIn(manager, acceptance.staffId, invitation) : await this.newAccount(manager, acceptance, invitation);
      const alreadyMember = await manager.existsBy(Membership, { staffId: staff.id, publicationId: invitation.publicationId });
      if (!alreadyMember) await manager.insert(Membership, { staffId: staff.id, publicationId: invitation.publicationId, role: invitation.role, createdAt: this.clock.now() });
      await manager.update(Invitation, invitation.id, { acceptedAt: this.clock.now() });
      await this.record(manager, invitation.publicationId, 'joined', staff.email, staff.email, invitation.role);
      return { email: staff.email, publicationId: invitation.publicationId };
    });
  }

  private async signedIn(manager: EntityManager, staffId: string, invitation: Invitation): Promise<Staff> {
    const staff = await manager.findOneByOrFail(Staff, { id: staffId });
    if (staff.email !== invitation.email) {
      throw new AppError('forbidden', `This invitation is for ${invitation.email}, and you are signed in as ${staff.email}. Sign out, then open the link again.`);
    }
    return staff;
  }

  private async newAccount(manager: EntityManager, draft: { name: string; password: string }, invitation: Invitation): Promise<Staff> {
    await this.throttle.count(invitation.email);
    if (await manager.existsBy(Staff, { email: invitation.email })) {
      throw new AppError('invalid_credentials', `Sign in as ${invitation.email} first, then open the link again to join.`);
    }
    const staff = await this.staff.register({ email: invitation.email, name: draft.name, password: draft.password }, manager);
    await this.throttle.succeeded(invitation.email);
    return staff;
  }

  private async openInvitation(manager: EntityManager, tokenHash: string, lock = false): Promise<Invitation> {
    const query = manager
      .getRepository(Invitation)
      .createQueryBuilder('i')
      .where('i.token_hash = :tokenHash AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > :now', { tokenHash, now: this.clock.now() });
    const invitation = await (lock ? query.setLock('pessimistic_write') : query).getOne();
    if (!invitation) throw new AppError('not_found', 'This invitation link is unknown, already used, revoked or expired. Ask for a new one.');
    return invitation;
  }

  private async requireOwner(actor: StaffActor): Promise<Staff> {
    if (actor.role !== 'admin') throw new AppError('forbidden', 'Only an owner of the publication may change its team.');
    return this.staff.get(actor.staffId);
  }

  private async lockedMember(manager: EntityManager, publicationId: string, staffId: string): Promise<{ membership: Membership; staff: Staff }> {
    // Every owner row of the publication is locked first, so two concurrent demotions cannot both pass the last-owner check.
    await manager.query(`SELECT 1 FROM memberships WHERE publication_id = $1 AND role = 'admin' FOR UPDATE`, [publicationId]);
    const membership = isUuid(staffId) ? await manager.findOneBy(Membership, { staffId, publicationId }) : null;
    if (!membership) throw new AppError('not_found', 'No such member.');
    return { membership, staff: await manager.findOneByOrFail(Staff, { id: staffId }) };
  }

  private async keepAnOwner(manager: EntityManager, publicationId: string): Promise<void> {
    const owners = await manager.countBy(Membership, { publicationId, role: 'admin' });
    if (owners <= 1) throw new AppError('conflict', 'A publication keeps at least one owner: make someone else an owner first.');
  }

  private async record(manager: EntityManager, publicationId: string, action: TeamChangeAction, actorEmail: string, subjectEmail: string, role: StaffRole | null): Promise<void> {
    await manager.insert(TeamChange, { id: randomUUID(), publicationId, action, actorEmail, subjectEmail, role, createdAt: this.clock.now() });
    this.logger.log({ publicationId, action, actor: actorEmail, subject: subjectEmail, role }, 'team change');
  }

  private async emailsOf(staffIds: string[]): Promise<Map<string, string>> {
    if (staffIds.length === 0) return new Map();
    const staff = await this.dataSource.getRepository(Staff).createQueryBuilder('s').where('s.id IN (:...ids)', { ids: [...new Set(staffIds)] }).getMany();
    return new Map(staff.map((s) => [s.id, s.email]));
  }
}

function memberView(staff: Staff, membership: Pick<Membership, 'role' | 'createdAt'>): TeamMemberView {
  return { id: staff.id, email: staff.email, name: staff.name, role: membership.role, joinedAt: membership.createdAt.toISOString() };
}

function invitationView(invitation: Invitation, invitedBy: string): InvitationView {
  const { id, email, role, createdAt, expiresAt } = invitation;
  return { id, email, role, invitedBy, createdAt: createdAt.toISOString(), expiresAt: expiresAt.toISOString() };
}
