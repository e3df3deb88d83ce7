import { Controller } from '@nestjs/common';
import { Handles } from '@gatehouse/bus';
import { WebhooksOutRequests, type CreatedWebhook, type RequestOf, type WebhookView, type WebhookWithDeliveries } from '@gatehouse/contracts';
import { RegistrationsService } from './registrations.service';

const { ListWebhooks, CreateWebhook, UpdateWebhook, DeleteWebhook } = WebhooksOutRequests;

@Controller()
export class RegistrationsHandler {
  constructor(private readonly registrations: RegistrationsService) {}

  @Handles(ListWebhooks)
  list({ publicationId }: RequestOf<typeof ListWebhooks>): Promise<{ webhooks: WebhookWithDeliveries[] }> {
    return this.registrations.list(publicationId);
  }

  @Handles(CreateWebhook)
  create(request: RequestOf<typeof CreateWebhook>): Promise<CreatedWebhook> {
    return this.registrations.create(request);
  }

  @Handles(UpdateWebhook)
  update(request: RequestOf<typeof UpdateWebhook>): Promise<WebhookView> {
    return this.registrations.update(request);
  }

  @Handles(DeleteWebhook)
  delete({ publicationId, webhookId }: RequestOf<typeof DeleteWebhook>): Promise<{ deleted: true }> {
    return this.registrations.delete(publicationId, webhookId);
  }
}
