import { AppError, isUuid } from '@gatehouse/platform';
import type { EntityManager } from 'typeorm';
import { Webhook } from './webhook.entity';

/** A registration of the publication; one of another publication is not found, like one that does not exist. */
export async function webhookOf(manager: EntityManager, publicationId: string, webhookId: string): Promise<Webhook> {
  const webhook = isUuid(webhookId) ? await manager.findOneBy(Webhook, { id: webhookId, publicationId }) : null;
  if (!webhook) throw new AppError('not_found', 'No such webhook.');
  return webhook;
}
