import { Controller } from '@nestjs/common';
import { AdminRequests, type DomainProofView, type MembershipView, type PublicationView, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { DomainProofsService } from './domain-proofs.service';
import { PublicationsService } from './publications.service';

const { GetPublication, ListPublications, CreatePublication, UpdatePublication, ListDomainProofs, VerifyDomain } = AdminRequests;

@Controller()
export class PublicationsHandler {
  constructor(
    private readonly publications: PublicationsService,
    private readonly domainProofs: DomainProofsService,
  ) {}

  @Handles(GetPublication)
  get({ publicationId }: RequestOf<typeof GetPublication>): Promise<PublicationView> {
    return this.publications.get(publicationId);
  }

  @Handles(ListPublications)
  async list({ staffId }: RequestOf<typeof ListPublications>): Promise<{ publications: MembershipView[] }> {
    return { publications: await this.publications.listFor(staffId) };
  }

  @Handles(CreatePublication)
  create({ staffId, name, domains }: RequestOf<typeof CreatePublication>): Promise<MembershipView> {
    return this.publications.create(staffId, { name, domains });
  }

  @Handles(UpdatePublication)
  update({ staffId, publicationId, name, domains, selfRegistration }: RequestOf<typeof UpdatePublication>): Promise<MembershipView> {
    return this.publications.update(staffId, publicationId, { name, domains, selfRegistration });
  }

  @Handles(ListDomainProofs)
  async listDomainProofs({ staffId, publicationId }: RequestOf<typeof ListDomainProofs>): Promise<{ items: DomainProofView[] }> {
    return { items: await this.domainProofs.list(staffId, publicationId) };
  }

  @Handles(VerifyDomain)
  verifyDomain({ staffId, publicationId, domain }: RequestOf<typeof VerifyDomain>): Promise<DomainProofView> {
    return this.domainProofs.verify(staffId, publicationId, domain);
  }
}
