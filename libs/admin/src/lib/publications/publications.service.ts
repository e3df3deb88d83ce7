import { Injectable } from '@nestjs/common';
import { InternalEvents, type MembershipView, type PublicationView, type StaffRole } from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { domainsOverlap, normaliseDomains, proofsFor, refusePublicSuffixes, verifiedDomainsOf } from './domains';
import { Membership } from './membership.entity';
import { Publication } from './publication.entity';

export interface PublicationDraft {
  name: string;
  domains: readonly string[];
}

export type PublicationChanges = Partial<PublicationDraft> & { selfRegistration?: boolean };

/** Publications and who may act on them. */
@Injectable()
export class PublicationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {}

  /** The staff member's publications, oldest membership first. */
  async listFor(staffId: string): Promise<MembershipView[]> {
    const memberships = await this.dataSource.getRepository(Membership).find({
      where: { staffId },
      relations: { publication: true },
      order: { createdAt: 'ASC', publication: { name: 'ASC' } },
    });
    return memberships.map(membershipView);
  }

  async get(publicationId: string): Promise<PublicationView> {
    const publication = isUuid(publicationId) ? await this.dataSource.getRepository(Publication).findOneBy({ id: publicationId }) : null;
    if (!publication) throw new AppError('not_found', 'No such publication.');
    return publicationView(publication);
  }

  async membership(staffId: string, publicationId: string): Promise<MembershipView | null> {
    if (!isUuid(publicationId)) return null;
    const membership = await this.dataSource.getRepository(Membership).findOne({
      where: { staffId, publicationId },
      relations: { publication: true },
    });
    return membership && membershipView(membership);
  }

  /** 404, never 403, for a publication the staff member has no role in: its existence is not theirs to know. */
  async requireMembership(staffId: string, publicationId: string): Promise<MembershipView> {
    const membership = await this.membership(staffId, publicationId);
    if (!membership) throw new AppError('not_found', 'No such publication.');
    return membership;
  }

  create(staffId: string, draft: PublicationDraft): Promise<MembershipView> {
    return this.dataSource.transaction((manager) => this.createWithAdmin(manager, staffId, draft));
  }

  /** Creates a publication with `staffId` as its admin, in the caller's transaction. */
  async createWithAdmin(manager: EntityManager, staffId: string, draft: PublicationDraft): Promise<MembershipView> {
    const now = this.clock.now();
    const id = randomUUID();
    const domains = normaliseDomains(draft.domains);
    await this.assertDomainsFree(manager, id, domains);
    const publication = manager.create(Publication, {
      id,
      name: draft.name,
      domains,
      selfRegistration: true,
      domainProofs: proofsFor(domains),
      createdAt: now,
      updatedAt: now,
    });
    await manager.insert(Publication, publication);
    await this.grant(staffId, publication.id, 'admin', manager);
    return { ...publicationView(publication), role: 'admin' };
  }

  async grant(staffId: string, publicationId: string, role: StaffRole, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(Membership, { staffId, publicationId, role, createdAt: this.clock.now() });
  }

  async update(staffId: string, publicationId: string, changes: PublicationChanges): Promise<MembershipView> {
    const membership = await this.requireMembership(staffId, publicationId);
    if (membership.role !== 'admin') throw new AppError('forbidden', 'Only an admin of the publication may change it.');
    return this.dataSource.transaction(async (manager) => {
      // Locked, so a verification recorded meanwhile is kept (or its domain's proof dropped with it).
      const publication = await manager.findOneOrFail(Publication, { where: { id: publicationId }, lock: { mode: 'pessimistic_write' } });
      const domains = changes.domains ? normaliseDomains(changes.domains) : publication.domains;
      const selfRegistration = changes.selfRegistration ?? publication.selfRegistration;
      const domainsChanged = domains.join(',') !== publication.domains.join(',');
      if (domainsChanged) await this.assertDomainsFree(manager, publicationId, domains);
      const updated = { name: changes.name ?? publication.name, domains, selfRegistration, domainProofs: proofsFor(domains, publication.domainProofs), updatedAt: this.clock.now() };
      await manager.update(Publication, publicationId, updated);
      // Gateways keep a key's publication, its domains and its self-registration setting with the key: they forget them now, not in a minute.
      if (domainsChanged || selfRegistration !== publication.selfRegistration) await this.outbox.add(manager, InternalEvents.PublicationChanged, { publicationId }, publicationId);
      return { ...publicationView({ ...publication, ...updated }), role: membership.role };
    });
  }

  /**
   * 400 for a public suffix; 409 `conflict` when a domain overlaps one of another publication (the
   * same, or a wildcard over it, or under its wildcard): a domain decides which publication's
   * paywalls a page gets, so no tenant may claim another's. Serialised by a lock, so two
   * publications cannot claim one domain at the same time.
   */
  private async assertDomainsFree(manager: EntityManager, publicationId: string, domains: string[]): Promise<void> {
    if (domains.length === 0) return;
    refusePublicSuffixes(domains);
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('admin:domains'))`);
    const taken: Array<{ domain: string }> = await manager.query('SELECT DISTINCT unnest(domains) AS domain FROM publications WHERE id <> $1', [publicationId]);
    const clash = domains.filter((domain) => taken.some((row) => domainsOverlap(domain, row.domain)));
    if (clash.length > 0) {
      throw new AppError('conflict', 'The request conflicts with another publication.', [
        { field: 'domains', message: `${clash.join(', ')} overlaps a domain of another publication` },
      ]);
    }
  }
}

function membershipView({ publication, role }: Membership): MembershipView {
  return { ...publicationView(publication), role };
}

function publicationView(publication: Publication): PublicationView {
  const { id, name, domains, selfRegistration } = publication;
  return { id, name, domains, selfRegistration, verifiedDomains: verifiedDomainsOf(publication) };
}
