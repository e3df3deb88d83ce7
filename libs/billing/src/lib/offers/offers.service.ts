import { Injectable } from '@nestjs/common';
import { BusClient } from '@gatehouse/bus';
import {
  AccessRequests,
  isOneTime,
  OFFER_CODE_PATTERN,
  type NewOffer,
  type OfferTerms,
  type OfferView,
  type Page,
  type PageRequest,
  type SegmentReader,
} from '@gatehouse/contracts';
import { newestFirst, pageOf } from '@gatehouse/db';
import { AppError, Clock, isUuid, parseTimestamp } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { DataSource, In } from 'typeorm';
import { Price } from '../catalog/price.entity';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { Subscription } from '../subscriptions/subscription.entity';
import { Offer } from './offer.entity';
import { ProcessorOffers } from './processor-offers.service';

/**
 * Offers (docs/billing.md): made at the processor as a coupon and a promotion code when processor
 * settings exist (else at the first checkout that redeems one), immutable but for `name` and
 * `active`, redeemed by code at checkout.
 */
@Injectable()
export class OffersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly settings: ProcessorSettingsService,
    private readonly processorOffers: ProcessorOffers,
    private readonly bus: BusClient,
  ) {}

  async list(publicationId: string, page: PageRequest): Promise<Page<OfferView>> {
    const query = this.dataSource.getRepository(Offer).createQueryBuilder('offer').where('offer.publication_id = :publicationId', { publicationId });
    const found = await pageOf(query, newestFirst(query.alias), page, (offer) => offer);
    const redemptions = await this.redemptions(found.items.map((offer) => offer.id));
    return { items: found.items.map((offer) => offerView(offer, redemptions.get(offer.id) ?? 0)), nextCursor: found.nextCursor };
  }

  async get(publicationId: string, offerId: string): Promise<OfferView> {
    const offer = await this.find(publicationId, offerId);
    return offerView(offer, await this.redemptionsOf(offer));
  }

  async create(publicationId: string, input: NewOffer): Promise<OfferView> {
    const offer = await this.validated(publicationId, input);
    const taken = await this.dataSource.getRepository(Offer).existsBy({ publicationId, code: offer.code });
    if (taken) throw new AppError('conflict', `The code ${offer.code} is taken by another offer of this publication.`);
    const client = await this.settings.client(publicationId);
    if (client) await this.processorOffers.ensure(client, offer);
    const inserted = await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(Offer)
      .values(offer)
      .orIgnore()
      .returning('id')
      .execute();
    if ((inserted.raw as unknown[]).length === 0) throw new AppError('conflict', `The code ${offer.code} is taken by another offer of this publication.`);
    return offerView(offer, 0);
  }

  async update(publicationId: string, offerId: string, changes: { active?: boolean; name?: string }): Promise<OfferView> {
    const offer = await this.find(publicationId, offerId);
    if (changes.name !== undefined) offer.name = nameOf(changes.name);
    if (changes.active !== undefined && changes.active !== offer.active) {
      const client = offer.processorPromotionCodeId ? await this.settings.client(publicationId) : null;
      if (client) await this.processorOffers.setActive(client, offer.processorPromotionCodeId as string, changes.active);
      offer.active = changes.active;
    }
    await this.dataSource.getRepository(Offer).update({ id: offer.id }, { name: offer.name, active: offer.active });
    return offerView(offer, await this.redemptionsOf(offer));
  }

  /**
   * What a reader may see of a code: unknown, not started and other publications' codes are alike
   * (404). `reader` null: staff asking whether it can be redeemed at all (its segment not asked).
   */
  async terms(publicationId: string, code: string, reader: SegmentReader | null): Promise<OfferTerms> {
    const offer = await this.redeemable(publicationId, code, reader);
    return termsOf(offer);
  }

  /**
   * The offer a checkout of `price` by the reader (its customer) redeems, ready at the processor;
   * refused with a problem the reader can act on when it cannot apply.
   */
  async forCheckout(client: Stripe, publicationId: string, code: string, price: Price, reader: SegmentReader & { customerId: string }): Promise<Offer> {
    const { customerId } = reader;
    const offer = await this.redeemable(publicationId, code, reader);
    if (offer.priceIds.length > 0 && !offer.priceIds.includes(price.id)) throw new AppError('offer_not_applicable', 'This offer is not for this price.');
    if (offer.kind === 'amount' && offer.currency !== price.currency) throw new AppError('offer_not_applicable', 'This offer is not for this price.');
    if (offer.kind === 'trial' && isOneTime(price.interval)) throw new AppError('offer_not_applicable', 'A trial offer is not for a one-time price.');
    if (offer.newCustomersOnly && (await this.dataSource.getRepository(Subscription).existsBy({ publicationId, customerId }))) {
      throw new AppError('offer_not_applicable', 'This offer is for new subscribers only.');
    }
    await this.ready(client, offer);
    return offer;
  }

  /** A discount offer's coupon and promotion code made at the processor (once) and their ids stored. */
  async ready(client: Stripe, offer: Offer): Promise<void> {
    if (offer.kind === 'trial' || offer.processorPromotionCodeId) return;
    await this.processorOffers.ensure(client, offer);
    await this.dataSource
      .getRepository(Offer)
      .update({ id: offer.id }, { processorCouponId: offer.processorCouponId, processorPromotionCodeId: offer.processorPromotionCodeId });
  }

  /** The publication's offer of that id, or null. */
  async findOne(publicationId: string, offerId: string): Promise<Offer | null> {
    return isUuid(offerId) ? this.dataSource.getRepository(Offer).findOneBy({ id: offerId, publicationId }) : null;
  }

  private async redeemable(publicationId: string, code: string, reader: SegmentReader | null): Promise<Offer> {
    const normalized = typeof code === 'string' && OFFER_CODE_PATTERN.test(code) ? code.toUpperCase() : null;
    const offer = normalized ? await this.dataSource.getRepository(Offer).findOneBy({ publicationId, code: normalized }) : null;
    const now = this.clock.now();
    if (!offer || (offer.startsAt && offer.startsAt > now)) throw new AppError('not_found', 'No such offer.');
    if (!offer.active || (offer.endsAt && offer.endsAt <= now)) throw new AppError('offer_expired', 'This offer has ended.');
    if (offer.maxRedemptions !== null && (await this.redemptionsOf(offer)) >= offer.maxRedemptions) {
      throw new AppError('offer_exhausted', 'This offer has been redeemed as often as it may be.');
    }
    if (offer.segmentId && reader && !(await this.inSegment(publicationId, offer.segmentId, reader))) {
      throw new AppError('offer_not_applicable', 'This offer is not available to you.');
    }
    return offer;
  }

  /** Access decides, as for a paywall's segment; a segment deleted since takes no one. */
  private async inSegment(publicationId: string, segmentId: string, reader: SegmentReader): Promise<boolean> {
    try {
      return (await this.bus.request(AccessRequests.ReaderInSegment, { publicationId, segmentId, reader })).inSegment;
    } catch (err) {
      if (err instanceof AppError && err.code === 'not_found') return false;
      throw err;
    }
  }

  private async find(publicationId: string, offerId: string): Promise<Offer> {
    const offer = await this.findOne(publicationId, offerId);
    if (!offer) throw new AppError('not_found', 'No such offer.');
    return offer;
  }

  private async redemptionsOf(offer: Offer): Promise<number> {
    return (await this.redemptions([offer.id])).get(offer.id) ?? 0;
  }

  private async redemptions(offerIds: string[]): Promise<Map<string, number>> {
    if (offerIds.length === 0) return new Map();
    const rows: Array<{ offer_id: string; n: number }> = await this.dataSource
      .getRepository(Subscription)
      .createQueryBuilder('s')
      .select('s.offer_id', 'offer_id')
      .addSelect('count(*)::int', 'n')
      .where({ offerId: In(offerIds) })
      .groupBy('s.offer_id')
      .getRawMany();
    return new Map(rows.map((row) => [row.offer_id, row.n]));
  }

  /** The rules the types cannot say (docs/billing.md), each refusal naming its field. */
  private async validated(publicationId: string, input: NewOffer): Promise<Offer> {
    if (!OFFER_CODE_PATTERN.test(input.code)) throw AppError.invalid('code', 'must be 3 to 40 letters, digits, - or _');
    const discount = input.kind !== 'trial';
    const only = (field: keyof NewOffer, allowed: boolean, message: string) => {
      if (!allowed && input[field] !== undefined && input[field] !== null) throw AppError.invalid(field, message);
    };
    only('percentOff', input.kind === 'percent', 'is only for a percent offer');
    only('amountOff', input.kind === 'amount', 'is only for an amount offer');
    only('currency', input.kind === 'amount', 'is only for an amount offer');
    only('trialDays', input.kind === 'trial', 'is only for a trial offer');
    only('duration', discount, 'is only for a discount');
    only('durationInMonths', input.duration === 'repeating', 'is only for a repeating discount');
    if (input.kind === 'percent' && input.percentOff === undefined) throw AppError.invalid('percentOff', 'is required for a percent offer');
    if (input.kind === 'amount' && input.amountOff === undefined) throw AppError.invalid('amountOff', 'is required for an amount offer');
    if (input.kind === 'amount' && input.currency === undefined) throw AppError.invalid('currency', 'is required for an amount offer');
    if (input.kind === 'trial' && input.trialDays === undefined) throw AppError.invalid('trialDays', 'is required for a trial offer');
    if (discount && input.duration === undefined) throw AppError.invalid('duration', 'is required for a discount');
    if (input.duration === 'repeating' && input.durationInMonths === undefined) throw AppError.invalid('durationInMonths', 'is required for a repeating discount');
    const startsAt = input.startsAt ? (parseTimestamp(input.startsAt) ?? null) : null;
    const endsAt = input.endsAt ? (parseTimestamp(input.endsAt) ?? null) : null;
    if (endsAt && endsAt <= (startsAt ?? this.clock.now())) throw AppError.invalid('endsAt', 'must be after startsAt and in the future');
    const currency = input.currency?.toLowerCase() ?? null;
    const priceIds = [...new Set(input.priceIds ?? [])];
    if (priceIds.length > 0) {
      const prices = await this.dataSource.getRepository(Price).findBy({ publicationId, id: In(priceIds.filter(isUuid)) });
      if (prices.length !== priceIds.length) throw AppError.invalid('priceIds', 'must be prices of this publication');
      if (currency && prices.some((price) => price.currency !== currency)) throw AppError.invalid('currency', 'must be the currency of every price it is for');
      if (input.kind === 'trial' && prices.some((price) => isOneTime(price.interval))) throw AppError.invalid('priceIds', 'a trial is not for a one-time price');
    }
    const segmentId = input.segmentId ?? null;
    if (segmentId !== null) {
      if (!isUuid(segmentId)) throw AppError.invalid('segmentId', 'must be a segment id (UUID)');
      // 404 for a segment not of the publication, as for any other id of another publication.
      await this.bus.request(AccessRequests.GetSegment, { publicationId, segmentId });
    }
    return Object.assign(new Offer(), {
      id: randomUUID(),
      publicationId,
      code: input.code.toUpperCase(),
      name: nameOf(input.name),
      kind: input.kind,
      percentOff: input.percentOff ?? null,
      amountOff: input.amountOff ?? null,
      currency,
      duration: input.duration ?? null,
      durationInMonths: input.durationInMonths ?? null,
      trialDays: input.trialDays ?? null,
      priceIds,
      maxRedemptions: input.maxRedemptions ?? null,
      startsAt,
      endsAt,
      newCustomersOnly: input.newCustomersOnly ?? false,
      segmentId,
      active: true,
      processorCouponId: null,
      processorPromotionCodeId: null,
      createdAt: this.clock.now(),
    });
  }
}

function nameOf(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw AppError.invalid('name', 'must be 1 to 100 characters');
  return trimmed;
}

export function termsOf(offer: Offer): OfferTerms {
  return {
    code: offer.code,
    name: offer.name,
    kind: offer.kind,
    percentOff: offer.percentOff,
    amountOff: offer.amountOff,
    currency: offer.currency,
    duration: offer.duration,
    durationInMonths: offer.durationInMonths,
    trialDays: offer.trialDays,
    priceIds: offer.priceIds,
    newCustomersOnly: offer.newCustomersOnly,
    endsAt: offer.endsAt?.toISOString() ?? null,
  };
}

function offerView(offer: Offer, redemptions: number): OfferView {
  return {
    id: offer.id,
    ...termsOf(offer),
    maxRedemptions: offer.maxRedemptions,
    redemptions,
    startsAt: offer.startsAt?.toISOString() ?? null,
    segmentId: offer.segmentId,
    active: offer.active,
    createdAt: offer.createdAt.toISOString(),
  };
}
