import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Events } from '@gatehouse/contracts';
import { EventConsumers } from '@gatehouse/bus';
import { OrganisationSeats } from './organisation-seats.service';

/** Seats follow readers' addresses: a verification at an organisation's domain joins, a change away from it leaves (docs/organisations.md). */
@Injectable()
export class OrganisationDomains implements OnModuleInit {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly seats: OrganisationSeats,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.consumers.subscribe('billing-organisation-domains', [Events.CustomerVerified, Events.CustomerUpdated, Events.CustomerDeleted], (envelope, manager) =>
      envelope.publicationId ? this.seats.followEmail(manager, envelope.publicationId, envelope.data, envelope.name === Events.CustomerDeleted.name) : Promise.resolve(),
    );
  }
}
