import { Controller } from '@nestjs/common';
import { BillingRequests, type CustomerEntitlement, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { PurchasesService } from './purchases.service';

const { GetEntitlements } = BillingRequests;

/** Decisions E6: what may let the customer through a paywall: their subscriptions, then their passes and single articles. */
@Controller()
export class EntitlementsHandler {
  constructor(
    private readonly subscriptions: SubscriptionsService,
    private readonly purchases: PurchasesService,
  ) {}

  @Handles(GetEntitlements)
  async entitlements({ publicationId, customerId }: RequestOf<typeof GetEntitlements>): Promise<{ entitlements: CustomerEntitlement[] }> {
    const [subscriptions, purchases] = await Promise.all([this.subscriptions.entitlements(publicationId, customerId), this.purchases.entitlementsOf(publicationId, customerId)]);
    return { entitlements: [...subscriptions, ...purchases] };
  }
}
