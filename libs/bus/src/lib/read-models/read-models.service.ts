import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { EVENT_TRANSPORT, type EventSubscription, type EventTransport } from '../events/event-transport';
import { ReadModel, type ReadModelOptions, type ReadModelReaction } from './read-model';

/**
 * The read models of one replica: `define` makes one and has the events it names change it, from
 * before the replica answers its first request until it stops. `caughtUp` is the one wait for
 * read-after-write: once it resolves, every change notice the broker had accepted when it was
 * called has reached this replica's models.
 */
@Injectable()
export class ReadModels implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ReadModels.name);
  private readonly pending: Array<() => Promise<EventSubscription>> = [];
  private readonly subscriptions: EventSubscription[] = [];
  /** Listeners of models defined once the replica runs, still subscribing. */
  private readonly subscribing = new Set<Promise<unknown>>();
  private started = false;
  private notices = 0;

  constructor(@Inject(EVENT_TRANSPORT) private readonly transport: EventTransport) {}

  define<K, V extends NonNullable<unknown>>(options: ReadModelOptions<K, V>): ReadModel<K, V> {
    const model = new ReadModel(options);
    for (const reaction of options.changedBy ?? []) this.listen(reaction, model);
    return model;
  }

  /**
   * Resolves once this replica's models heard every notice the broker accepted before the call: a
   * request that awaits it before its first read sees every write answered before it was sent.
   * False when the broker did not confirm it in time: the models may trail a write.
   */
  caughtUp(): Promise<boolean> {
    if (this.subscribing.size === 0) return this.transport.caughtUp();
    return Promise.all(this.subscribing).then(() => this.transport.caughtUp());
  }

  /**
   * How many change notices this replica's models have heard: a read made before `caughtUp` resolved
   * holds when the count did not move from before the read until then.
   */
  get heard(): number {
    return this.notices;
  }

  /** Whether every model hears its notices already (one defined once the replica runs may still be subscribing). */
  listening(): boolean {
    return this.subscribing.size === 0;
  }

  /** Whether the change notices can reach this replica now (always, in process). */
  connected(): boolean {
    return this.transport.isConnected();
  }

  async onModuleInit(): Promise<void> {
    this.started = true;
    this.subscriptions.push(...(await Promise.all(this.pending.splice(0).map((subscribe) => subscribe()))));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.subscriptions.splice(0).map((subscription) => subscription.stop()));
  }

  private listen<K, V extends NonNullable<unknown>>(reaction: ReadModelReaction<K, V>, model: ReadModel<K, V>): void {
    const subscribe = () =>
      this.transport.listen([reaction.event], async (envelope) => {
        this.notices += 1;
        reaction.react(envelope, model);
      });
    if (!this.started) return void this.pending.push(subscribe);
    // A model defined once the replica runs: it hears its events once subscribed (caughtUp waits for that).
    const subscribing: Promise<unknown> = subscribe()
      .then(
        (subscription) => void this.subscriptions.push(subscription),
        (err: unknown) => this.logger.error(`Not listening for ${reaction.event.name}: ${String(err)}`),
      )
      .finally(() => this.subscribing.delete(subscribing));
    this.subscribing.add(subscribing);
  }
}
