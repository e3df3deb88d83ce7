import { Controller } from '@nestjs/common';
import { IdentityRequests, type CustomerProfile, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { CustomersService } from './customers.service';

@Controller()
export class CustomersHandler {
  constructor(private readonly customers: CustomersService) {}

  @Handles(IdentityRequests.GetCustomer)
  get(request: RequestOf<typeof IdentityRequests.GetCustomer>): Promise<CustomerProfile> {
    return this.customers.profile(request.publicationId, request.customerId);
  }

  @Handles(IdentityRequests.PublicationOfCustomer)
  async publicationOf(request: RequestOf<typeof IdentityRequests.PublicationOfCustomer>): Promise<{ publicationId: string | null }> {
    return { publicationId: await this.customers.publicationOf(request.customerId) };
  }

  @Handles(IdentityRequests.RecentlyDeleted)
  async recentlyDeleted(request: RequestOf<typeof IdentityRequests.RecentlyDeleted>): Promise<{ customers: Array<{ customerId: string; deletedAt: string }> }> {
    return { customers: await this.customers.deletedSince(request.since) };
  }
}
