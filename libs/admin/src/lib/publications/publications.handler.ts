import { Controller } from '@nestjs/common';
import { AdminRequests, type MembershipView, type PublicationView, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { PublicationsService } from './publications.service';

const { GetPublication, ListPublications, CreatePublication, UpdatePublication } = AdminRequests;

@Controller()
export class PublicationsHandler {
  constructor(private readonly publications: PublicationsService) {}

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
}
