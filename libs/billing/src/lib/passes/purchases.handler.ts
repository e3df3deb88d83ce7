import { Controller } from '@nestjs/common';
import { BillingRequests, type CustomerPurchaseView, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { PurchasesService } from './purchases.service';

const { CustomerPurchases } = BillingRequests;

@Controller()
export class PurchasesHandler {
  constructor(private readonly purchases: PurchasesService) {}

  @Handles(CustomerPurchases)
  ofCustomer({ publicationId, customerId }: RequestOf<typeof CustomerPurchases>): Promise<{ purchases: CustomerPurchaseView[] }> {
    return this.purchases.ofCustomer(publicationId, customerId);
  }
}
