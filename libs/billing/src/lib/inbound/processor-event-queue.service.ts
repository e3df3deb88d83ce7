import { Injectable, type OnModuleInit } from '@nestjs/common';
import { BillingInternalEvents } from '@gatehouse/contracts';
import { EventConsumers } from '@gatehouse/bus';
import { ProcessorEventProcessor } from './processor-event-processor.service';

/** Billing's durable consumer of its own queue of inbound events: a failed one is redelivered with a growing delay. */
@Injectable()
export class ProcessorEventQueue implements OnModuleInit {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly processor: ProcessorEventProcessor,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.consumers.subscribe('billing-processor-events', [BillingInternalEvents.ProcessorEventReceived], (envelope, manager) =>
      this.processor.process(manager, envelope.data.scope, envelope.data.eventId),
    );
  }
}
