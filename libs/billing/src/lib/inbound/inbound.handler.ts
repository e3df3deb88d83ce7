import { Controller } from '@nestjs/common';
import { BillingRequests, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { ProcessorEventReceiver } from './processor-event-receiver';

const { ReceiveProcessorEvent } = BillingRequests;

@Controller()
export class InboundHandler {
  constructor(private readonly receiver: ProcessorEventReceiver) {}

  @Handles(ReceiveProcessorEvent)
  receive({ publicationId, payload, signature }: RequestOf<typeof ReceiveProcessorEvent>): Promise<{ received: true }> {
    return this.receiver.receive(publicationId, payload, signature);
  }
}
