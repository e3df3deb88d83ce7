import { BusClient, InProcessClient, InProcessHub, ReadModels, type BusOptions } from '@gatehouse/bus';
import { InternalEvents } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import { DeletedCustomers } from '../deleted-customers.service';

describe('the deleted-customer set of a gateway replica', () => {
  it('refuses a customer from the moment its deletion notice is heard, and no other', async () => {
    const hub = new InProcessHub();
    const options: BusOptions = { service: 'gateway', namespace: 'deleted-customers-test', transport: { kind: 'in-process', hub } };
    const readModels = new ReadModels(hub.events);
    // Identity is not running: the replica asks for recent deletions in the background until it stops.
    const deleted = new DeletedCustomers(new BusClient(options, new InProcessClient(hub.requests, options.namespace)), readModels);
    await readModels.onModuleInit();
    deleted.onModuleInit();

    expect(deleted.has('c1')).toBe(false);
    await hub.events.publish({ id: randomUUID(), name: InternalEvents.CustomerDeleted.name, publicationId: 'p1', occurredAt: new Date().toISOString(), data: { customerId: 'c1' } });
    await readModels.caughtUp();
    expect(deleted.has('c1')).toBe(true);
    expect(deleted.has('c2')).toBe(false);

    deleted.onModuleDestroy();
    await readModels.onModuleDestroy();
  });
});
