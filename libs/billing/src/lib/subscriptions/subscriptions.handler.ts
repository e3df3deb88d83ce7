import { Controller } from '@nestjs/common';
import { BillingRequests, type Page, type RequestOf, type SubscriptionView } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { SubscriptionsService } from './subscriptions.service';

const { ListSubscriptions, GetSubscription, CustomerSubscriptions, GrantSubscription } = BillingRequests;

@Controller()
export class SubscriptionsHandler {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Handles(ListSubscriptions)
  list({ publicationId, ...filter }: RequestOf<typeof ListSubscriptions>): Promise<Page<SubscriptionView>> {
    return this.subscriptions.list(publicationId, filter);
  }

  @Handles(GetSubscription)
  get({ publicationId, subscriptionId }: RequestOf<typeof GetSubscription>): Promise<SubscriptionView> {
    return this.subscriptions.get(publicationId, subscriptionId);
  }

  @Handles(CustomerSubscriptions)
  ofCustomer({ publicationId, customerId }: RequestOf<typeof CustomerSubscriptions>): Promise<{ subscriptions: SubscriptionView[] }> {
    return this.subscriptions.ofCustomer(publicationId, customerId);
  }

  @Handles(GrantSubscription)
  grant({ publicationId, customerId, priceId, currentPeriodEnd }: RequestOf<typeof GrantSubscription>): Promise<SubscriptionView> {
    return this.subscriptions.grant(publicationId, customerId, priceId, currentPeriodEnd);
  }
}
