import { Controller } from '@nestjs/common';
import { GiftRequests, type GiftCheckoutView, type GiftRedemption, type GiftView, type Page, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { GiftsService } from './gifts.service';

const { PurchaseGift, RedeemGift, ListGifts, GetGift, VoidGift } = GiftRequests;

@Controller()
export class GiftsHandler {
  constructor(private readonly gifts: GiftsService) {}

  @Handles(PurchaseGift)
  purchase(request: RequestOf<typeof PurchaseGift>): Promise<GiftCheckoutView> {
    return this.gifts.purchase(request);
  }

  @Handles(RedeemGift)
  redeem({ publicationId, customerId, code }: RequestOf<typeof RedeemGift>): Promise<GiftRedemption> {
    return this.gifts.redeem(publicationId, customerId, code);
  }

  @Handles(ListGifts)
  list({ publicationId, limit, cursor }: RequestOf<typeof ListGifts>): Promise<Page<GiftView>> {
    return this.gifts.list(publicationId, { limit, cursor });
  }

  @Handles(GetGift)
  get({ publicationId, giftId }: RequestOf<typeof GetGift>): Promise<GiftView> {
    return this.gifts.get(publicationId, giftId);
  }

  @Handles(VoidGift)
  void({ publicationId, giftId }: RequestOf<typeof VoidGift>): Promise<GiftView> {
    return this.gifts.void(publicationId, giftId);
  }
}
