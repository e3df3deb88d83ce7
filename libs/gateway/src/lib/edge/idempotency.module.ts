import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { IDEMPOTENCY_STORE, IdempotencyInterceptor, MemoryIdempotencyStore, RedisIdempotencyStore, type IdempotencyStore } from './idempotency.service';
import { connectRedis, RedisOrMemory } from './redis-or-memory';

/** The store and the interceptor for every routes module: shared through Redis when REDIS_URL is set. */
@Global()
@Module({})
export class IdempotencyModule implements OnApplicationShutdown {
  constructor(@Inject(IDEMPOTENCY_STORE) private readonly store: IdempotencyStore) {}

  static forRoot(redisUrl: string | undefined, timeoutMs: number, namespace: string): DynamicModule {
    return {
      module: IdempotencyModule,
      providers: [
        {
          provide: IDEMPOTENCY_STORE,
          useFactory: () => (redisUrl ? new RedisIdempotencyStore(new RedisOrMemory(connectRedis(redisUrl, timeoutMs, namespace), 'idempotency')) : new MemoryIdempotencyStore()),
        },
        IdempotencyInterceptor,
      ],
      exports: [IDEMPOTENCY_STORE, IdempotencyInterceptor],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.store instanceof RedisIdempotencyStore) await this.store.close();
  }
}
