import { Logger } from '@nestjs/common';
import type { EventEnvelope, EventType } from '@gatehouse/contracts';
import { cacheMetrics } from '@gatehouse/platform';
import { LRUCache } from 'lru-cache';

/** What an event may do to a read model: forget entries, or patch one in. */
export interface ReadModelChanges<K, V> {
  forget(...keys: K[]): void;
  forgetWhere(matches: (value: V, key: string) => boolean): void;
  clear(): void;
  set(key: K, value: V, freshMs?: number): void;
}

/** One event type and what it does to the model; made with `on`. */
export interface ReadModelReaction<K, V> {
  readonly event: EventType<any>;
  readonly react: (envelope: EventEnvelope<any>, model: ReadModelChanges<K, V>) => void;
}

/** What `event` does to the model, its envelope typed by the event. */
export function on<T, K, V>(event: EventType<T>, react: (envelope: EventEnvelope<T>, model: ReadModelChanges<K, V>) => void): ReadModelReaction<K, V> {
  return { event, react };
}

export interface ReadModelOptions<K, V> {
  /** Names the model in logs. */
  name: string;
  /**
   * The source query: one key's value, read from its owner (a query of the service's schema, a bus
   * request). Without it the model holds only what is `set` in it.
   */
  load?: (key: K) => Promise<NoInfer<V>>;
  /** The string a key is kept under; `String(key)` unless given. */
  keyOf?: (key: K) => string;
  /** The bound: past it the least recently used entry goes. Left out only where forgetting early would be wrong; `freshMs` then bounds the model. */
  max?: number;
  /** How long a value is used before it is loaded again: the safety net behind the events. */
  freshMs: number;
  /** A value's own freshness, when it differs by value (a key not found is asked again sooner). */
  freshMsOf?: (value: V) => number;
  /**
   * When a load fails: the last value however old, or else `fallback`, stands in for `retryMs`
   * before the source is asked again. Without it a failed load throws and nothing is kept.
   */
  staleOnFailure?: { retryMs: number; fallback?: (key: K) => NoInfer<V> };
  /** The events that change the model: `on(Event, (envelope, model) => model.forget(…))`. */
  changedBy?: ReadModelReaction<K, V>[];
}

/**
 * The most a value's age may be read late by: its freshness may end up to this much after
 * `freshMs` (a customer token verified in its last moments may be taken that long past its
 * expiry, well within the one-second grain of a token's `exp`).
 */
const TTL_RESOLUTION_MS = 50;

/** A load failure with nothing to stand in for it: rethrown to the caller as its cause. */
class LoadFailed {
  constructor(readonly cause: unknown) {}
}

/*
 * V is taken from the type the model is assigned to (NoInfer above), not from what `load` happens
 * to return: a model's value type is what its readers are promised.
 */

/**
 * A replica-local copy of state another component owns, kept in memory and answered from it:
 * bounded (LRU), fresh for `freshMs` at most, changed by the events that announce changes (wired by
 * `ReadModels.define`), loaded once for concurrent readers of a key, and standing on its last value
 * while the source fails. A key forgotten while its load is in flight does not take that load's
 * (possibly outdated) answer: the readers waiting on it load again.
 */
export class ReadModel<K, V extends NonNullable<unknown>> implements ReadModelChanges<K, V> {
  private readonly cache: LRUCache<string, V, unknown>;
  /** Loads in flight by key: their answers are not known yet. */
  private readonly loading = new Map<string, number>();
  private readonly keyOf: (key: K) => string;
  private readonly logger: Logger;

  constructor(private readonly options: ReadModelOptions<K, V>) {
    this.keyOf = options.keyOf ?? String;
    this.logger = new Logger(`ReadModel ${options.name}`);
    const load = options.load;
    this.cache = new LRUCache<string, V, unknown>({
      // Bounded by count through maxSize, not max: with max, lru-cache allocates its index arrays for
      // the whole bound up front (about 40 bytes an entry of every model, used or not).
      ...(options.max ? { maxSize: options.max, sizeCalculation: () => 1 } : { ttlAutopurge: true }),
      ttl: options.freshMs,
      // lru-cache reads the clock once per ttlResolution and sets a timer to read it again: at its
      // default of 1 ms a busy model set a timer nearly every check. A hundredth of the freshness
      // (at most TTL_RESOLUTION_MS) is as good a measure of age.
      ttlResolution: Math.max(1, Math.min(TTL_RESOLUTION_MS, Math.floor(options.freshMs / 100))),
      // An expired value stays until replaced: it stands in when the source fails.
      noDeleteOnStaleGet: true,
      ...(load ? { fetchMethod: (_key, stale, { options: set, context }) => this.fetch(load, context as K, stale, set) } : {}),
    });
  }

  /** The key's value: from memory while fresh, else loaded (once for every concurrent reader). */
  async get(key: K): Promise<V> {
    const k = this.keyOf(key);
    const fresh = this.cache.get(k);
    cacheMetrics.lookups.inc({ cache: this.options.name, result: fresh === undefined ? 'miss' : 'hit' });
    if (fresh !== undefined) return fresh;
    return this.fetchKey(k, key, false);
  }

  /** The key's value if this replica holds a fresh one; never loads. */
  peek(key: K): V | undefined {
    return this.cache.get(this.keyOf(key));
  }

  /** Loads the key again now (joining a load in flight); the value held stands in if that load fails. */
  reload(key: K): Promise<V> {
    return this.fetchKey(this.keyOf(key), key, true);
  }

  set(key: K, value: V, freshMs = this.options.freshMsOf?.(value) ?? this.options.freshMs): void {
    if (freshMs <= 0) return this.forget(key);
    this.cache.set(this.keyOf(key), value, { ttl: freshMs });
  }

  forget(...keys: K[]): void {
    for (const key of keys) this.cache.delete(this.keyOf(key));
  }

  /** Forgets the entries that match, expired ones included (they would stand in on a failure), and every load in flight. */
  forgetWhere(matches: (value: V, key: string) => boolean): void {
    for (const [key, { value }] of this.cache.dump()) if (matches(value, key)) this.cache.delete(key);
    for (const key of [...this.loading.keys()]) this.cache.delete(key);
  }

  clear(): void {
    this.cache.clear();
  }

  get size(): number {
    return this.cache.size;
  }

  private async fetchKey(k: string, key: K, forceRefresh: boolean): Promise<V> {
    if (!this.options.load) throw new Error(`Read model ${this.options.name} has no source to load ${k} from`);
    for (;;) {
      try {
        return (await this.cache.fetch(k, { context: key, forceRefresh })) as V;
      } catch (err) {
        if (err instanceof LoadFailed) throw err.cause;
        // The key was forgotten while its load was in flight: load it again.
      }
    }
  }

  private async fetch(load: (key: K) => Promise<V>, key: K, stale: V | undefined, set: LRUCache.SetOptions<string, V, unknown>): Promise<V> {
    const k = this.keyOf(key);
    this.loading.set(k, (this.loading.get(k) ?? 0) + 1);
    try {
      const value = await load(key);
      set.ttl = this.options.freshMsOf?.(value) ?? this.options.freshMs;
      return value;
    } catch (err) {
      const fallback = this.options.staleOnFailure;
      const standIn = stale ?? fallback?.fallback?.(key);
      if (!fallback || standIn === undefined) throw new LoadFailed(err);
      this.logger.warn(
        `${k} not loaded (${err instanceof Error ? err.message : String(err)}); ${stale === undefined ? 'using the fallback' : 'using the last known value'} for ${fallback.retryMs} ms.`,
      );
      set.ttl = fallback.retryMs;
      return standIn;
    } finally {
      const left = (this.loading.get(k) ?? 1) - 1;
      if (left > 0) this.loading.set(k, left);
      else this.loading.delete(k);
    }
  }
}
