import { Injectable } from '@nestjs/common';
import type { CreatedWebhook, CreateWebhookRequest, UpdateWebhookRequest, WebhookView, WebhookWithDeliveries } from '@gatehouse/contracts';
import { AppError, Clock } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DeliveryLog } from '../deliveries/delivery-log.service';
import { WebhookSecretBox } from '../secrets/webhook-secret-box.service';
import { generateWebhookSecret } from '../secrets/webhook-secret';
import { TargetPolicy } from '../targets/target-policy.service';
import { webhookOf } from './webhook-lookup';
import { Webhook } from './webhook.entity';

/** Keeps the list, with its deliveries, a size a dashboard can show in one answer. */
const MAX_WEBHOOKS_PER_PUBLICATION = 50;

/** Registrations (decisions G1): the secret is shown once at creation, kept encrypted, and kept on every change. */
@Injectable()
export class RegistrationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly policy: TargetPolicy,
    private readonly secrets: WebhookSecretBox,
    private readonly log: DeliveryLog,
  ) {}

  /** Newest first, each with its last 20 attempts. */
  async list(publicationId: string): Promise<{ webhooks: WebhookWithDeliveries[] }> {
    const webhooks = await this.dataSource.getRepository(Webhook).find({ where: { publicationId }, order: { createdAt: 'DESC', id: 'ASC' } });
    const recent = await this.log.recent(webhooks.map((webhook) => webhook.id));
    return { webhooks: webhooks.map((webhook) => ({ ...webhookView(webhook), deliveries: recent.get(webhook.id) ?? [] })) };
  }

  async create({ publicationId, url, events, description }: CreateWebhookRequest): Promise<CreatedWebhook> {
    await this.policy.assertRegistrable(url);
    const secret = generateWebhookSecret();
    const now = this.clock.now();
    const webhook = this.dataSource.getRepository(Webhook).create({
      id: randomUUID(),
      publicationId,
      url,
      events: distinct(events),
      description: description ?? null,
      secretSealed: this.secrets.seal(secret),
      createdAt: now,
      updatedAt: now,
    });
    await this.dataSource.transaction(async (manager) => {
      // Creations in one publication take turns, so two at once cannot both pass the limit.
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`webhooks:${publicationId}`]);
      if ((await manager.countBy(Webhook, { publicationId })) >= MAX_WEBHOOKS_PER_PUBLICATION) {
        throw new AppError('conflict', `A publication has at most ${MAX_WEBHOOKS_PER_PUBLICATION} webhooks; delete one first.`);
      }
      await manager.insert(Webhook, webhook);
    });
    return { ...webhookView(webhook), secret };
  }

  /** Pending attempts follow the change: they go to the new URL. The secret stays. */
  async update({ publicationId, webhookId, url, events, description }: UpdateWebhookRequest): Promise<WebhookView> {
    const webhook = await webhookOf(this.dataSource.manager, publicationId, webhookId);
    if (url !== undefined) await this.policy.assertRegistrable(url);
    const changes: Partial<Webhook> = { updatedAt: this.clock.now() };
    if (url !== undefined) changes.url = url;
    if (events !== undefined) changes.events = distinct(events);
    if (description !== undefined) changes.description = description;
    const { affected } = await this.dataSource.getRepository(Webhook).update({ id: webhook.id, publicationId }, changes);
    if (!affected) throw new AppError('not_found', 'No such webhook.');
    return webhookView({ ...webhook, ...changes });
  }

  /** Its deliveries and pending attempts go with it: nothing more is sent (an attempt in flight ends unrecorded). */
  async delete(publicationId: string, webhookId: string): Promise<{ deleted: true }> {
    const webhook = await webhookOf(this.dataSource.manager, publicationId, webhookId);
    const { affected } = await this.dataSource.getRepository(Webhook).delete({ id: webhook.id, publicationId });
    if (!affected) throw new AppError('not_found', 'No such webhook.');
    return { deleted: true };
  }
}

function webhookView(webhook: Webhook): WebhookView {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
    createdAt: webhook.createdAt.toISOString(),
  };
}

function distinct(values: string[]): string[] {
  return [...new Set(values)];
}
