import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EventConsumers } from '@gatehouse/bus';
import { Events, type EventType } from '@gatehouse/contracts';
import { DeliveriesService } from './deliveries.service';

/** Every event of spec 6.2; each carries its own data type, which fan-out passes on untouched. */
const OUTBOUND_EVENTS = Object.values(Events) as EventType<unknown>[];

/** Consumes the event stream with one durable consumer: each event is fanned out once, whatever the replicas. */
@Injectable()
export class EventFanOut implements OnModuleInit {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly deliveries: DeliveriesService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.consumers.subscribe('webhooks-out', OUTBOUND_EVENTS, (envelope, manager) => this.deliveries.fanOut(manager, envelope));
  }
}
