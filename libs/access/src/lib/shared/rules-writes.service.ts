import { Injectable } from '@nestjs/common';
import { InternalEvents } from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * Writes to a publication's access rules (paywalls, segments, experiments, crawler policy): each
 * runs in a transaction that also adds `internal.access.rules.changed`, which the commit publishes
 * before the write returns. Every replica's catalog forgets the publication's rules on hearing it,
 * so the next check anywhere reads them afresh; nothing here knows the catalog. A publication's
 * rule writes take turns (a transaction lock), so limits counted inside one hold.
 */
@Injectable()
export class RulesWrites {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
  ) {}

  write<T>(publicationId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('access-rules:' || $1))", [publicationId]);
      const result = await work(manager);
      await this.outbox.add(manager, InternalEvents.AccessRulesChanged, {}, publicationId);
      return result;
    });
  }
}
