import { Controller } from '@nestjs/common';
import { BillingRequests, type CheckoutConfirmation, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { AppError } from '@gatehouse/platform';
import { gunzipSync } from 'node:zlib';
import { CheckoutConfirmationService } from './checkout-confirmation.service';
import { ProcessorEventReceiver } from './processor-event-receiver.service';

const { ReceiveProcessorEvent, ConfirmCheckout } = BillingRequests;

/** What the processor tells billing: its webhooks, and what it answers about a checkout the reader came back from. */
@Controller()
export class InboundHandler {
  constructor(
    private readonly receiver: ProcessorEventReceiver,
    private readonly confirmations: CheckoutConfirmationService,
  ) {}

  @Handles(ConfirmCheckout)
  confirm({ publicationId, customerId, sessionId }: RequestOf<typeof ConfirmCheckout>): Promise<CheckoutConfirmation> {
    return this.confirmations.confirm(publicationId, customerId, sessionId);
  }

  @Handles(ReceiveProcessorEvent)
  receive({ publicationId, payload, gzip, signature }: RequestOf<typeof ReceiveProcessorEvent>): Promise<{ received: true }> {
    return this.receiver.receive(publicationId, bodyOf(payload, gzip === true), signature);
  }
}

/** The processor webhook's bytes as received at the gateway (decisions B2: at most 1 MiB, however well compressed). */
function bodyOf(payload: string, gzip: boolean): Buffer {
  const sent = Buffer.from(payload, 'base64');
  if (!gzip) return sent;
  try {
    return gunzipSync(sent, { maxOutputLength: MAX_BODY_BYTES });
  } catch {
    throw new AppError('payload_too_large', 'The event is over 1 MiB.');
  }
}
const MAX_BODY_BYTES = 1024 * 1024;
