import { Controller } from '@nestjs/common';
import {
  OrganisationRequests,
  type OrganisationInvitationView,
  type OrganisationMemberView,
  type OrganisationNetwork,
  type OrganisationSeatsView,
  type OrganisationView,
  type Page,
  type RequestOf,
} from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { OrganisationSeats } from './organisation-seats.service';
import { OrganisationsService } from './organisations.service';

const { List, Get, Create, Update, Delete, Seats, Managed, Invite, RemoveMember, CancelInvitation, AcceptInvitation, Networks } = OrganisationRequests;

@Controller()
export class OrganisationsHandler {
  constructor(
    private readonly organisations: OrganisationsService,
    private readonly seats: OrganisationSeats,
  ) {}

  @Handles(List)
  list({ publicationId, limit, cursor }: RequestOf<typeof List>): Promise<Page<OrganisationView>> {
    return this.organisations.list(publicationId, { limit, cursor });
  }

  @Handles(Get)
  get({ publicationId, organisationId }: RequestOf<typeof Get>): Promise<OrganisationView> {
    return this.organisations.get(publicationId, organisationId);
  }

  @Handles(Create)
  create({ publicationId, organisation }: RequestOf<typeof Create>): Promise<OrganisationView> {
    return this.organisations.create(publicationId, organisation);
  }

  @Handles(Update)
  update({ publicationId, organisationId, changes }: RequestOf<typeof Update>): Promise<OrganisationView> {
    return this.organisations.update(publicationId, organisationId, changes);
  }

  @Handles(Delete)
  async delete({ publicationId, organisationId }: RequestOf<typeof Delete>): Promise<{ deleted: true }> {
    await this.organisations.delete(publicationId, organisationId);
    return { deleted: true };
  }

  @Handles(Networks)
  networks({ publicationId }: RequestOf<typeof Networks>): Promise<{ networks: OrganisationNetwork[] }> {
    return this.organisations.networks(publicationId);
  }

  @Handles(Seats)
  seatsOf({ publicationId, organisationId, actor }: RequestOf<typeof Seats>): Promise<OrganisationSeatsView> {
    return this.seats.seats(publicationId, organisationId, actor);
  }

  @Handles(Managed)
  managed({ publicationId, customerId }: RequestOf<typeof Managed>): Promise<{ organisations: OrganisationSeatsView[] }> {
    return this.seats.managed(publicationId, customerId);
  }

  @Handles(Invite)
  invite(request: RequestOf<typeof Invite>): Promise<OrganisationInvitationView> {
    return this.seats.invite(request);
  }

  @Handles(RemoveMember)
  async remove({ publicationId, organisationId, actor, customerId }: RequestOf<typeof RemoveMember>): Promise<{ removed: true }> {
    await this.seats.remove(publicationId, organisationId, actor, customerId);
    return { removed: true };
  }

  @Handles(CancelInvitation)
  async cancelInvitation({ publicationId, organisationId, actor, invitationId }: RequestOf<typeof CancelInvitation>): Promise<{ cancelled: true }> {
    await this.seats.cancelInvitation(publicationId, organisationId, actor, invitationId);
    return { cancelled: true };
  }

  @Handles(AcceptInvitation)
  accept({ publicationId, customerId, token }: RequestOf<typeof AcceptInvitation>): Promise<OrganisationMemberView & { organisation: { id: string; name: string } }> {
    return this.seats.accept(publicationId, customerId, token);
  }
}
