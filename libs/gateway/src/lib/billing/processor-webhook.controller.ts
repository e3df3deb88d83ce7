import { Controller, Headers, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { BillingRequests } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError } from '@gatehouse/platform';
import { gzipSync } from 'node:zlib';
import type { RequestWithRawBody } from '../gateway-edge';
import { Auth } from '../edge/credentials';
import { ProcessorWebhookReceivedDto } from './dtos/billing-views.dto';
import { ProcessorWebhookQueryDto } from './dtos/billing.dto';

/**
 * Bodies above this travel gzip-compressed: base64 adds a third, and NATS carries at most 1 MiB
 * a message by default. Compressed, a body may take three times this (about 0.95 MiB as base64);
 * processor events are JSON and shrink far below that.
 */
const PLAIN_MAX_BYTES = 240 * 1024;

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
    const raw = request.rawBody ?? Buffer.alloc(0);
    const gzip = raw.length > PLAIN_MAX_BYTES;
    const sent = gzip ? gzipSync(raw) : raw;
    if (sent.length > PLAIN_MAX_BYTES * 3) {
      throw new AppError('payload_too_large', 'This event is too large to pass on, even compressed.');
    }
    return this.bus.request(BillingRequests.ReceiveProcessorEvent, {
      publicationId: query.publication?.toLowerCase() ?? null,
      payload: sent.toString('base64'),
      ...(gzip ? { gzip } : {}),
      signature: signature ?? null,
    });
  }
}
