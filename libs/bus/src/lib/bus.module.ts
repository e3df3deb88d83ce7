import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { CustomTransportStrategy } from '@nestjs/microservices';
import { DEFAULT_SHUTDOWN_GRACE_MS } from '@gatehouse/platform';
import { BUS_OPTIONS, type BusOptions } from './bus-options';
import { BusClient, REQUEST_CLIENT, type RequestClient } from './requests/bus-client.service';
import { InProcessClient, InProcessServer } from './requests/in-process.transport';
import { NatsRequestClient, NatsRequestServer } from './requests/nats.transport';

export function createRequestClient(options: BusOptions): RequestClient {
  return options.transport.kind === 'nats'
    ? new NatsRequestClient(options.transport, options.namespace, options.service)
    : new InProcessClient(options.transport.hub.requests, options.namespace);
}

/** The transport a service answers requests on; its replicas share one queue group. */
export function createRequestServer(options: BusOptions): CustomTransportStrategy & (NatsRequestServer | InProcessServer) {
  return options.transport.kind === 'nats'
    ? new NatsRequestServer(options.transport, options.service, options.namespace, options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS)
    : new InProcessServer(options.transport.hub.requests, options.namespace);
}

/** Bus options and the typed request client, available to every module of the process. */
@Global()
@Module({})
export class BusModule {
  static forRoot(options: BusOptions): DynamicModule {
    return {
      module: BusModule,
      providers: [
        { provide: BUS_OPTIONS, useValue: options },
        { provide: REQUEST_CLIENT, useFactory: () => createRequestClient(options) },
        BusClient,
      ],
      exports: [BUS_OPTIONS, BusClient],
    };
  }
}
