import { isUuid } from '@gatehouse/platform';
import type { EntityManager } from 'typeorm';
import { Offer } from './offer.entity';

/**
 * The offer a processor subscription or purchase was started with: our checkout put its id in the
 * metadata; it counts only when it names an offer of this publication.
 */
export async function redeemedOffer(
  manager: EntityManager,
  publicationId: string,
  metadata: Record<string, string> | null | undefined,
): Promise<{ offerId: string | null; offerCode: string | null }> {
  const offerId = metadata?.['offerId'];
  const offer = isUuid(offerId) ? await manager.findOneBy(Offer, { publicationId, id: offerId }) : null;
  return { offerId: offer?.id ?? null, offerCode: offer?.code ?? null };
}
