import { Body, Controller, Get, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { OfferRequests, type OfferTerms, type OfferView, type Page } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import type { FastifyRequest } from 'fastify';
import { SegmentReaders } from '../access/segment-readers.service';
import { Auth, RateLimit } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Idempotent } from '../edge/idempotency.service';
import { PageQueryDto } from '../edge/page-query.dto';
import { Caller, keyPublicationOf, publicationOf, type Principal } from '../edge/principal';
import { CreateOfferDto, OfferCodeQueryDto, OfferPageDto, OfferTermsDto, OfferViewDto, UpdateOfferDto } from './dtos/offers.dto';

/** Staff's offers, in the dashboard (session) or from the publisher's server (secret key, the Node client). */
@ApiTags('admin offers')
@Controller('admin/offers')
export class AdminOffersController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session-or-secret')
  @ApiOperation({ summary: "The publication's offers, newest first, cursor paginated, with how often each was redeemed." })
  @ApiOkResponse({ type: OfferPageDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: a bad `limit`, or a `cursor` this list did not issue' })
  list(@Caller() caller: Principal, @Query() query: PageQueryDto): Promise<Page<OfferView>> {
    return this.bus.request(OfferRequests.ListOffers, { publicationId: publicationOf(caller), ...query });
  }

  @Post()
  @Auth('session-or-secret')
  @Idempotent()
  @ApiOperation({
    summary:
      'Create an offer: a discount (percent or amount, once, for some months or forever) or a longer trial, on some or every price, optionally limited by redemptions, dates, new customers and a segment. With processor settings saved, its coupon and promotion code are made at the processor too.',
  })
  @ApiCreatedResponse({ type: OfferViewDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: a field its kind does not take, or misses one it needs; prices not of the publication or of another currency; a `segmentId` that is not a UUID' })
  @ApiResponse({ status: 404, description: '`not_found`: `segmentId` is not a segment of the publication' })
  @ApiResponse({ status: 409, description: '`conflict`: the code is taken in the publication' })
  @ApiResponse({ status: 502, description: '`processor_error`: the payment processor refused or failed; nothing was stored' })
  create(@Caller() caller: Principal, @Body() body: CreateOfferDto): Promise<OfferView> {
    return this.bus.request(OfferRequests.CreateOffer, { publicationId: publicationOf(caller), offer: body });
  }

  @Get(':id')
  @Auth('session-or-secret')
  @ApiOperation({ summary: 'One offer.' })
  @ApiOkResponse({ type: OfferViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  get(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<OfferView> {
    return this.bus.request(OfferRequests.GetOffer, { publicationId: publicationOf(caller), offerId: id });
  }

  @Patch(':id')
  @Auth('session-or-secret')
  @Idempotent()
  @ApiOperation({ summary: "Rename an offer, or end it (`active: false`) and bring it back. Its terms never change: a reader's offer stays what it said." })
  @ApiOkResponse({ type: OfferViewDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: anything but `name` and `active`' })
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 502, description: '`processor_error`: the payment processor refused or failed; nothing changed' })
  update(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() changes: UpdateOfferDto): Promise<OfferView> {
    return this.bus.request(OfferRequests.UpdateOffer, { publicationId: publicationOf(caller), offerId: id, changes });
  }
}

@ApiTags('subscriptions')
@Controller('offers')
export class OffersController {
  constructor(
    private readonly bus: BusClient,
    private readonly readers: SegmentReaders,
  ) {}

  @Get()
  @Auth('publishable')
  @RateLimit('offer-code')
  @ApiOperation({
    summary:
      "A reader's offer code: its terms, to show before checkout. An unknown code, one of another publication and one not started yet are alike (404); one that ended or was used up says so (410); one limited to a segment the reader is not in is refused (409). The reader is the customer of a JWT when one is sent, with the page, `userId` and attributes an access check takes. 30 look-ups a minute per key and address.",
  })
  @ApiHeader({ name: 'Authorization', required: false, description: 'Bearer <customer access token>: the reader for a segment; an invalid or expired one answers 401.' })
  @ApiOkResponse({ type: OfferTermsDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: not a code (3 to 40 letters, digits, - or _), or another parameter is invalid' })
  @ApiResponse({ status: 403, description: "`url_not_in_publication`: `url`'s host is not a domain of the key's publication" })
  @ApiResponse({ status: 404, description: '`not_found`: no such offer' })
  @ApiResponse({ status: 409, description: '`offer_not_applicable`: the offer is limited to a segment the reader is not in' })
  @ApiResponse({ status: 410, description: '`offer_expired`: it ended; `offer_exhausted`: it was redeemed as often as it may be' })
  async terms(@Caller() caller: Principal, @Query() query: OfferCodeQueryDto, @Req() request: FastifyRequest): Promise<OfferTerms> {
    const { code, ...stated } = query;
    const reader = await this.readers.readerOf(caller, caller.customer?.customerId ?? null, stated, request);
    return this.bus.request(OfferRequests.FindOfferTerms, { publicationId: keyPublicationOf(caller), code, reader });
  }
}
