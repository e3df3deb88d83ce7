import { Controller } from '@nestjs/common';
import { AccessRequests, type Page, type PaywallView, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { PaywallsService } from './paywalls.service';

const { ListPaywalls, GetPaywall, CreatePaywall, UpdatePaywall, DeletePaywall } = AccessRequests;

@Controller()
export class PaywallsHandler {
  constructor(private readonly paywalls: PaywallsService) {}

  @Handles(ListPaywalls)
  list({ publicationId, limit, cursor }: RequestOf<typeof ListPaywalls>): Promise<Page<PaywallView>> {
    return this.paywalls.list(publicationId, { limit, cursor });
  }

  @Handles(GetPaywall)
  get({ publicationId, paywallId }: RequestOf<typeof GetPaywall>): Promise<PaywallView> {
    return this.paywalls.get(publicationId, paywallId);
  }

  @Handles(CreatePaywall)
  create({ publicationId, paywall }: RequestOf<typeof CreatePaywall>): Promise<PaywallView> {
    return this.paywalls.create(publicationId, paywall);
  }

  @Handles(UpdatePaywall)
  update({ publicationId, paywallId, changes }: RequestOf<typeof UpdatePaywall>): Promise<PaywallView> {
    return this.paywalls.update(publicationId, paywallId, changes);
  }

  @Handles(DeletePaywall)
  delete({ publicationId, paywallId }: RequestOf<typeof DeletePaywall>): Promise<{ deleted: true }> {
    return this.paywalls.delete(publicationId, paywallId);
  }
}
