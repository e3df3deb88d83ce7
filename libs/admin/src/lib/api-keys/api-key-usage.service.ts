import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ACTIVITY_RECORD_INTERVAL_MS, isActivityStale } from '../shared/activity';
import type { ApiKey } from './api-key.entity';

/** Records when keys were last used, off the path of the request that used them. */
@Injectable()
export class ApiKeyUsage implements OnModuleDestroy {
  private readonly logger = new Logger(ApiKeyUsage.name);
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly dataSource: DataSource) {}

  record(key: ApiKey, now: Date): void {
    if (!isActivityStale(key.lastUsedAt, now)) return;
    const write = this.write(key.id, now).finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Lets the writes in flight finish before the database closes. */
  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.pending);
  }

  private async write(keyId: string, now: Date): Promise<void> {
    const recordedBefore = new Date(now.getTime() - ACTIVITY_RECORD_INTERVAL_MS);
    try {
      // Re-checked here because other replicas record the same key.
      await this.dataSource.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $3)', [
        keyId,
        now,
        recordedBefore,
      ]);
    } catch (err) {
      this.logger.warn(`Could not record the use of API key ${keyId}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
