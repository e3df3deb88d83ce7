import { Injectable, Logger } from '@nestjs/common';
import type { ProcessorSettingsView } from '@gatehouse/contracts';
import { AppError, Clock, SecretBox } from '@gatehouse/platform';
import Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { BillingConfig } from '../billing.config';
import { atProcessor, ProcessorClients } from './processor-clients.service';
import { HANDLED_PROCESSOR_EVENTS } from './processor-events';
import { ProcessorSettings } from './processor-settings.entity';

const LOCAL_BASE_URL = 'http://localhost:3000';

/** Decisions F2: a publication's processor account, its secrets sealed at rest and shown masked. */
@Injectable()
export class ProcessorSettingsService {
  private readonly logger = new Logger(ProcessorSettingsService.name);
  private readonly baseUrl: string;
  private readonly localTestKey: string | null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly clients: ProcessorClients,
    config: BillingConfig,
  ) {
    this.baseUrl = (config.PUBLIC_BASE_URL ?? LOCAL_BASE_URL).replace(/\/+$/, '');
    this.localTestKey = config.LOCAL_PROCESSOR_KEY ?? null;
  }

  async view(publicationId: string): Promise<ProcessorSettingsView> {
    return this.viewOf(publicationId, await this.find(publicationId));
  }

  /**
   * Without a webhook secret, the webhook endpoint is created at the processor first (with the
   * new key), and the settings are stored only once it exists: a refusal stores nothing.
   */
  async save(publicationId: string, secretKey: string, webhookSecret?: string): Promise<ProcessorSettingsView> {
    const previous = await this.find(publicationId);
    const endpoint = webhookSecret ? null : await this.createWebhookEndpoint(publicationId, secretKey);
    const settings = this.repository().create({
      publicationId,
      secretKeySealed: this.box.encrypt(secretKey),
      webhookSecretSealed: this.box.encrypt(webhookSecret ?? (endpoint?.secret as string)),
      webhookEndpointId: endpoint?.id ?? null,
      updatedAt: this.clock.now(),
    });
    await this.repository().save(settings);
    if (previous?.webhookEndpointId) await this.retireWebhookEndpoint(previous);
    return this.viewOf(publicationId, settings);
  }

  /** The publication's processor client, or null before settings are saved. */
  async client(publicationId: string): Promise<Stripe | null> {
    const settings = await this.find(publicationId);
    return settings ? this.clients.forKey(this.box.decrypt(settings.secretKeySealed)) : null;
  }

  async requireClient(publicationId: string): Promise<Stripe> {
    const client = await this.client(publicationId);
    if (!client) throw new AppError('conflict', 'This publication has no payment processor settings yet: save them first (PUT /api/v1/admin/processor).');
    return client;
  }

  async webhookSecret(publicationId: string): Promise<string | null> {
    const settings = await this.find(publicationId);
    return settings ? this.box.decrypt(settings.webhookSecretSealed) : null;
  }

  private async createWebhookEndpoint(publicationId: string, secretKey: string): Promise<Stripe.WebhookEndpoint> {
    const endpoint = await atProcessor('create the webhook endpoint', () =>
      this.clients.forKey(secretKey).webhookEndpoints.create({
        url: this.webhookUrl(publicationId),
        enabled_events: [...HANDLED_PROCESSOR_EVENTS],
        api_version: Stripe.API_VERSION,
        description: 'Gatehouse subscription sync',
        metadata: { publicationId },
      }),
    );
    if (!endpoint.secret) throw new AppError('processor_error', 'The payment processor created the webhook endpoint without a signing secret.');
    return endpoint;
  }

  /** The endpoint created for the settings being replaced would deliver every event twice: removed, best effort. */
  private async retireWebhookEndpoint(previous: ProcessorSettings): Promise<void> {
    const endpointId = previous.webhookEndpointId as string;
    try {
      await this.clients.forKey(this.box.decrypt(previous.secretKeySealed)).webhookEndpoints.del(endpointId);
    } catch (err) {
      this.logger.warn(`Could not remove the replaced webhook endpoint ${endpointId} at the processor: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private webhookUrl(publicationId: string): string {
    return `${this.baseUrl}/api/v1/webhooks/processor?publication=${publicationId}`;
  }

  private viewOf(publicationId: string, settings: ProcessorSettings | null): ProcessorSettingsView {
    return {
      configured: settings !== null,
      secretKey: settings ? masked(this.box.decrypt(settings.secretKeySealed)) : null,
      webhookSecret: settings ? masked(this.box.decrypt(settings.webhookSecretSealed)) : null,
      webhookEndpointId: settings?.webhookEndpointId ?? null,
      webhookUrl: this.webhookUrl(publicationId),
      updatedAt: settings?.updatedAt.toISOString() ?? null,
      localTestKey: this.localTestKey,
    };
  }

  private find(publicationId: string): Promise<ProcessorSettings | null> {
    return this.repository().findOneBy({ publicationId });
  }

  private repository() {
    return this.dataSource.getRepository(ProcessorSettings);
  }
}

/** `sk_test_abc…wxyz` → `sk_...wxyz`: the kind of secret and enough to recognise it, nothing to use. */
export function masked(secret: string): string {
  const kind = secret.slice(0, secret.indexOf('_') + 1);
  return `${kind}...${secret.slice(-4)}`;
}
