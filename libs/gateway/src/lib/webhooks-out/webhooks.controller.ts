import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { BusClient } from '@gatehouse/bus';
import { WebhooksOutRequests, type CreatedWebhook, type DeliveryAttemptView, type WebhookView, type WebhookWithDeliveries } from '@gatehouse/contracts';
import { Auth } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { CreateWebhookDto, UpdateWebhookDto } from './dtos/webhooks.dto';
import { CreatedWebhookDto, DeliveryAttemptViewDto, WebhookListDto, WebhookViewDto } from './dtos/webhooks-views.dto';

const NOT_FOUND = '`not_found`: no such webhook in the current publication';

@ApiTags('admin webhooks')
@Controller('admin/webhooks')
export class WebhooksController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: "The publication's outbound webhooks, newest first, each with its last 20 delivery attempts; never the secrets." })
  @ApiOkResponse({ type: WebhookListDto })
  list(@Caller() caller: Principal): Promise<{ webhooks: WebhookWithDeliveries[] }> {
    return this.bus.request(WebhooksOutRequests.ListWebhooks, { publicationId: sessionOf(caller).publicationId });
  }

  @Post()
  @Auth('session')
  @ApiOperation({ summary: 'Register an endpoint for events of spec 6.2. The signing secret is in this answer only.' })
  @ApiCreatedResponse({ type: CreatedWebhookDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: `url` not https or pointing to a private network, or `events` not names of spec 6.2' })
  @ApiResponse({ status: 409, description: '`conflict`: the publication has 50 webhooks already' })
  create(@Caller() caller: Principal, @Body() body: CreateWebhookDto): Promise<CreatedWebhook> {
    return this.bus.request(WebhooksOutRequests.CreateWebhook, { publicationId: sessionOf(caller).publicationId, ...body });
  }

  @Patch(':id')
  @Auth('session')
  @ApiOperation({ summary: 'Change the URL, the events or the description; the secret is kept. Pending retries go to the new URL.' })
  @ApiOkResponse({ type: WebhookViewDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 404, description: NOT_FOUND })
  update(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() body: UpdateWebhookDto): Promise<WebhookView> {
    return this.bus.request(WebhooksOutRequests.UpdateWebhook, { publicationId: sessionOf(caller).publicationId, webhookId: id, ...body });
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth('session')
  @ApiOperation({ summary: 'Remove the webhook and its delivery log: nothing more is sent to it, pending retries included.' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, description: NOT_FOUND })
  async delete(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.bus.request(WebhooksOutRequests.DeleteWebhook, { publicationId: sessionOf(caller).publicationId, webhookId: id });
  }

  @Post(':id/test')
  @HttpCode(202)
  @Auth('session')
  @ApiOperation({
    summary: 'Send a `webhook.test` event (not an event of spec 6.2) to this webhook only, signed and retried like any delivery.',
  })
  @ApiAcceptedResponse({ type: DeliveryAttemptViewDto, description: 'The scheduled first attempt.' })
  @ApiResponse({ status: 404, description: NOT_FOUND })
  sendTest(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<DeliveryAttemptView> {
    return this.bus.request(WebhooksOutRequests.SendTestEvent, { publicationId: sessionOf(caller).publicationId, webhookId: id });
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  @Auth('session')
  @ApiOperation({ summary: 'Start a new series of attempts for a delivery that succeeded or failed: same delivery id, same body, fresh signatures.' })
  @ApiAcceptedResponse({ type: DeliveryAttemptViewDto, description: 'The scheduled attempt.' })
  @ApiResponse({ status: 404, description: '`not_found`: no such webhook or delivery in the current publication' })
  @ApiResponse({ status: 409, description: '`conflict`: the delivery is still being attempted' })
  redeliver(
    @Caller() caller: Principal,
    @Param('id', IdParamPipe) id: string,
    @Param('deliveryId', IdParamPipe) deliveryId: string,
  ): Promise<DeliveryAttemptView> {
    return this.bus.request(WebhooksOutRequests.RedeliverDelivery, { publicationId: sessionOf(caller).publicationId, webhookId: id, deliveryId });
  }
}
