import { Injectable } from '@nestjs/common';
import {
  Events,
  ORGANISATION_INVITATION_TTL_DAYS,
  OrganisationEmailRequests,
  type CustomerEventData,
  type InvitationRequest,
  type MembershipOrigin,
  type OrganisationInvitationView,
  type OrganisationMemberView,
  type OrganisationSeatsView,
  type SeatsActor,
} from '@gatehouse/contracts';
import { BusClient, Outbox } from '@gatehouse/bus';
import { AppError, Clock, isUuid, randomToken, sha256Hex } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, In, type EntityManager } from 'typeorm';
import { EntitlementsAnnouncer } from '../subscriptions/entitlements-announcer.service';
import { OrganisationInvitation } from './organisation-invitation.entity';
import { OrganisationMember } from './organisation-member.entity';
import { Organisation } from './organisation.entity';
import { organisationView, OrganisationsService, seatsUsed } from './organisations.service';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DAY_MS = 24 * 3600 * 1000;

/**
 * The seats of organisations (docs/organisations.md): managers (and staff) invite by email through
 * identity's durable queue, a reader takes a seat from the invitation or by a verified email at
 * one of the domains, and removal frees it. A seat is taken with the organisation's row locked, so
 * concurrent joins never exceed the seats. Each change tells access whose entitlements changed.
 */
@Injectable()
export class OrganisationSeats {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly bus: BusClient,
    private readonly outbox: Outbox,
    private readonly announcer: EntitlementsAnnouncer,
    private readonly organisations: OrganisationsService,
  ) {}

  async seats(publicationId: string, organisationId: string, actor: SeatsActor): Promise<OrganisationSeatsView> {
    const organisation = await this.organisations.find(this.dataSource.manager, publicationId, organisationId, false, actor);
    return this.seatsOf(organisation);
  }

  async managed(publicationId: string, customerId: string): Promise<{ organisations: OrganisationSeatsView[] }> {
    if (!isUuid(customerId)) return { organisations: [] };
    const managed = await this.dataSource
      .getRepository(Organisation)
      .createQueryBuilder('o')
      .where('o.publication_id = :publicationId AND :customerId = ANY(o.manager_ids)', { publicationId, customerId })
      .orderBy('o.name')
      .getMany();
    return { organisations: await Promise.all(managed.map((organisation) => this.seatsOf(organisation))) };
  }

  /** Queues the invitation's email; a second invitation of the same address replaces the first. */
  async invite({ publicationId, organisationId, actor, email, returnUrl }: InvitationRequest): Promise<OrganisationInvitationView> {
    const address = email.trim().toLowerCase();
    if (!EMAIL.test(address) || address.length > 254) throw AppError.invalid('email', 'must be an email address');
    const token = randomToken();
    const now = this.clock.now();
    return this.dataSource.transaction(async (manager) => {
      const organisation = await this.organisations.find(manager, publicationId, organisationId, true, actor);
      if (await manager.existsBy(OrganisationMember, { organisationId, email: address })) throw new AppError('conflict', `${address} already holds a seat.`);
      assertSeatFree(organisation, await seatsUsed(manager, organisationId));
      await manager.delete(OrganisationInvitation, { organisationId, email: address });
      const invitation = Object.assign(new OrganisationInvitation(), {
        id: randomUUID(),
        organisationId,
        publicationId,
        email: address,
        tokenHash: sha256Hex(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + ORGANISATION_INVITATION_TTL_DAYS * DAY_MS),
      });
      await manager.insert(OrganisationInvitation, invitation);
      await this.outbox.add(
        manager,
        Events.OrganisationMemberInvited,
        { organisationId, organisationName: organisation.name, invitationId: invitation.id, email: address, expiresAt: invitation.expiresAt.toISOString() },
        publicationId,
      );
      // Queued before the invitation commits (identity's queue is keyed by its id): no invitation without its email.
      await this.bus.request(OrganisationEmailRequests.SendInvitation, {
        publicationId,
        invitationId: invitation.id,
        to: address,
        organisationName: organisation.name,
        token,
        returnUrl: returnUrl ?? null,
      });
      return invitationView(invitation);
    });
  }

  async accept(publicationId: string, customerId: string, token: string): Promise<OrganisationMemberView & { organisation: { id: string; name: string } }> {
    return this.dataSource.transaction(async (manager) => {
      const invitation = typeof token === 'string' && token.length <= 128 ? await manager.findOneBy(OrganisationInvitation, { tokenHash: sha256Hex(token), publicationId }) : null;
      if (!invitation || invitation.expiresAt <= this.clock.now()) throw new AppError('invitation_invalid', 'This invitation is unknown, used or expired: ask for a new one.');
      const organisation = await this.organisations.find(manager, publicationId, invitation.organisationId, true);
      const member = await this.join(manager, organisation, customerId, invitation.email, 'invitation');
      await manager.delete(OrganisationInvitation, { id: invitation.id });
      return { ...memberView(member), organisation: { id: organisation.id, name: organisation.name } };
    });
  }

  async remove(publicationId: string, organisationId: string, actor: SeatsActor, customerId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const organisation = await this.organisations.find(manager, publicationId, organisationId, true, actor);
      const member = isUuid(customerId) ? await manager.findOneBy(OrganisationMember, { organisationId, customerId }) : null;
      if (!member) throw new AppError('not_found', 'No such member.');
      await this.leave(manager, organisation, member, 'removed');
    });
  }

  async cancelInvitation(publicationId: string, organisationId: string, actor: SeatsActor, invitationId: string): Promise<void> {
    await this.organisations.find(this.dataSource.manager, publicationId, organisationId, false, actor);
    const deleted = isUuid(invitationId) ? await this.dataSource.getRepository(OrganisationInvitation).delete({ id: invitationId, organisationId }) : { affected: 0 };
    if (!deleted.affected) throw new AppError('not_found', 'No such invitation.');
  }

  /**
   * A customer's email changed, was verified, or the customer is gone: a verified address at an
   * organisation's domain takes a seat there while seats are free; a seat taken by a domain the
   * address is no longer verified at is given up.
   */
  async followEmail(manager: EntityManager, publicationId: string, customer: CustomerEventData, deleted: boolean): Promise<void> {
    const email = customer.email.toLowerCase();
    const domain = !deleted && customer.emailVerified ? email.slice(email.lastIndexOf('@') + 1) : null;
    const held = await manager.findBy(OrganisationMember, { publicationId, customerId: customer.customerId });
    const organisations = await manager.findBy(Organisation, { id: In(held.map((member) => member.organisationId)) });
    for (const member of held) {
      const organisation = organisations.find((o) => o.id === member.organisationId) as Organisation;
      if (deleted || (member.via === 'domain' && (domain === null || !organisation.domains.includes(domain)))) {
        await this.leave(manager, organisation, member, 'email_changed');
      }
    }
    if (!domain) return;
    const now = this.clock.now();
    const atDomain = await manager
      .getRepository(Organisation)
      .createQueryBuilder('o')
      .setLock('pessimistic_write')
      .where('o.publication_id = :publicationId AND :domain = ANY(o.domains) AND o.starts_at <= :now AND (o.ends_at IS NULL OR o.ends_at > :now)', { publicationId, domain, now })
      .getMany();
    for (const organisation of atDomain) {
      if (held.some((member) => member.organisationId === organisation.id)) continue;
      const used = await seatsUsed(manager, organisation.id);
      // A full organisation takes the reader once a seat is free and their address is verified again; nothing to refuse to anyone here.
      if (organisation.seats === null || used < organisation.seats) await this.join(manager, organisation, customer.customerId, email, 'domain');
    }
  }

  /** Takes a seat of the organisation, whose row the transaction holds; a member already seated keeps theirs. */
  private async join(manager: EntityManager, organisation: Organisation, customerId: string, email: string, via: MembershipOrigin): Promise<OrganisationMember> {
    const seated = await manager.findOneBy(OrganisationMember, { organisationId: organisation.id, customerId });
    if (seated) return seated;
    const used = await seatsUsed(manager, organisation.id);
    assertSeatFree(organisation, used);
    const member = Object.assign(new OrganisationMember(), { organisationId: organisation.id, customerId, publicationId: organisation.publicationId, email, via, joinedAt: this.clock.now() });
    await manager.insert(OrganisationMember, member);
    await this.outbox.add(manager, Events.OrganisationMemberJoined, memberEventData(organisation, member, used + 1), organisation.publicationId);
    await this.announcer.customer(manager, organisation.publicationId, customerId);
    return member;
  }

  private async leave(manager: EntityManager, organisation: Organisation, member: OrganisationMember, reason: 'removed' | 'email_changed'): Promise<void> {
    await manager.delete(OrganisationMember, { organisationId: member.organisationId, customerId: member.customerId });
    const used = await seatsUsed(manager, organisation.id);
    await this.outbox.add(manager, Events.OrganisationMemberRemoved, { ...memberEventData(organisation, member, used), reason }, organisation.publicationId);
    await this.announcer.customer(manager, organisation.publicationId, member.customerId);
  }

  private async seatsOf(organisation: Organisation): Promise<OrganisationSeatsView> {
    const [members, invitations] = await Promise.all([
      this.dataSource.getRepository(OrganisationMember).find({ where: { organisationId: organisation.id }, order: { joinedAt: 'ASC', customerId: 'ASC' } }),
      this.dataSource.getRepository(OrganisationInvitation).find({ where: { organisationId: organisation.id }, order: { createdAt: 'ASC' } }),
    ]);
    const now = this.clock.now();
    return {
      organisation: organisationView(organisation, members.length),
      members: members.map(memberView),
      invitations: invitations.filter((invitation) => invitation.expiresAt > now).map(invitationView),
    };
  }
}

function assertSeatFree(organisation: Organisation, used: number): void {
  if (organisation.seats !== null && used >= organisation.seats) {
    throw new AppError('organisation_full', `Every one of the ${organisation.seats} seats of ${organisation.name} is taken: a manager can free one.`);
  }
}

function memberView(member: OrganisationMember): OrganisationMemberView {
  return { customerId: member.customerId, email: member.email, via: member.via, joinedAt: member.joinedAt.toISOString() };
}

function invitationView(invitation: OrganisationInvitation): OrganisationInvitationView {
  return { id: invitation.id, email: invitation.email, createdAt: invitation.createdAt.toISOString(), expiresAt: invitation.expiresAt.toISOString() };
}

function memberEventData(organisation: Organisation, member: OrganisationMember, used: number) {
  return {
    organisationId: organisation.id,
    organisationName: organisation.name,
    customerId: member.customerId,
    email: member.email,
    via: member.via,
    seats: organisation.seats,
    seatsUsed: used,
  };
}
