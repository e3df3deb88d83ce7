import { Controller, Headers, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { BillingRequests } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import type { RequestWithRawBody } from '../create-gateway';
import { Auth } from '../edge/credentials';
import { ProcessorWebhookReceivedDto } from './dtos/billing-views.dto';
import { ProcessorWebhookQueryDto } from './dtos/billing.dto';

@ApiTags('processor webhook')
@Controller('webhooks')
export class ProcessorWebhookController {
  constructor(private readonly bus: BusClient) {}

  /** The signature covers the exact bytes received: those go to billing untouched (base64), never the parsed body. */
  @Post('processor')
  @HttpCode(200)
  @Auth('none')
  @ApiOperation({
    summary:
      "The payment processor's events (spec 4.5, 6.1), verified by their `Stripe-Signature` (300 s tolerance) against the publication's webhook secret when `?publication=` is given, else PROCESSOR_WEBHOOK_SECRET. Each event id is handled once.",
  })
  @ApiHeader({ name: 'Stripe-Signature', required: true, description: '`t=<unix seconds>,v1=<hex HMAC-SHA256>`' })
  @ApiOkResponse({ type: ProcessorWebhookReceivedDto })
  @ApiResponse({ status: 400, description: '`signature_invalid`: missing, malformed, older than 300 s or wrong; nothing is stored' })
  @ApiResponse({ status: 413, description: '`payload_too_large`: over 1 MiB' })
  receive(
    @Query() query: ProcessorWebhookQueryDto,
    @Req() request: RequestWithRawBody,
    @Headers('stripe-signature') signature: string | undefined,
  ): Promise<{ received: true }> {
    return this.bus.request(BillingRequests.ReceiveProcessorEvent, {
      publicationId: query.publication?.toLowerCase() ?? null,
      payload: (request.rawBody ?? Buffer.alloc(0)).toString('base64'),
      signature: signature ?? null,
    });
  }
}
