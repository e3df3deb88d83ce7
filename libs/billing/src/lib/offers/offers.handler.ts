import { Controller } from '@nestjs/common';
import { OfferRequests, type OfferTerms, type OfferView, type Page, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { OffersService } from './offers.service';

const { ListOffers, GetOffer, CreateOffer, UpdateOffer, FindOfferTerms } = OfferRequests;

@Controller()
export class OffersHandler {
  constructor(private readonly offers: OffersService) {}

  @Handles(ListOffers)
  list({ publicationId, limit, cursor }: RequestOf<typeof ListOffers>): Promise<Page<OfferView>> {
    return this.offers.list(publicationId, { limit, cursor });
  }

  @Handles(GetOffer)
  get({ publicationId, offerId }: RequestOf<typeof GetOffer>): Promise<OfferView> {
    return this.offers.get(publicationId, offerId);
  }

  @Handles(CreateOffer)
  create({ publicationId, offer }: RequestOf<typeof CreateOffer>): Promise<OfferView> {
    return this.offers.create(publicationId, offer);
  }

  @Handles(UpdateOffer)
  update({ publicationId, offerId, changes }: RequestOf<typeof UpdateOffer>): Promise<OfferView> {
    return this.offers.update(publicationId, offerId, changes);
  }

  @Handles(FindOfferTerms)
  terms({ publicationId, code, reader }: RequestOf<typeof FindOfferTerms>): Promise<OfferTerms> {
    return this.offers.terms(publicationId, code, reader);
  }
}
