import { Controller } from '@nestjs/common';
import { BillingRequests, type CheckoutSessionView, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { CheckoutService } from './checkout.service';

const { CreateCheckout, CreatePortal } = BillingRequests;

@Controller()
export class CheckoutHandler {
  constructor(private readonly checkouts: CheckoutService) {}

  @Handles(CreateCheckout)
  checkout(request: RequestOf<typeof CreateCheckout>): Promise<CheckoutSessionView> {
    return this.checkouts.checkout(request);
  }

  @Handles(CreatePortal)
  portal({ publicationId, customerId, returnUrl }: RequestOf<typeof CreatePortal>): Promise<{ url: string }> {
    return this.checkouts.portal(publicationId, customerId, returnUrl);
  }
}
