import { Injectable } from '@nestjs/common';
import type { AuditEntryView, AuditLogFilter, AuditRecord, Page, PageRequest } from '@gatehouse/contracts';
import { newestFirst, pageOf } from '@gatehouse/db';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { Staff } from '../staff/staff.entity';
import { AuditEntry, auditEntryView } from './audit-entry.entity';

/** `%text%` for ILIKE, the text's own `%`, `_` and `\` taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** The publications' audit logs: appended to by the gateway, read by staff. */
@Injectable()
export class AuditLogService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async append(record: AuditRecord): Promise<void> {
    const staff = await this.dataSource.getRepository(Staff).findOneBy({ id: record.staffId });
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(AuditEntry)
      .values({ ...record, actorEmail: staff?.email ?? '', actorName: staff?.name ?? '', createdAt: this.clock.now() })
      .orIgnore()
      .execute();
  }

  list(publicationId: string, filter: AuditLogFilter, page: PageRequest): Promise<Page<AuditEntryView>> {
    const query = this.dataSource.getRepository(AuditEntry).createQueryBuilder('e').where('e.publication_id = :publicationId', { publicationId });
    if (filter.actor) query.andWhere('e.actor_email ILIKE :actor', { actor: containing(filter.actor) });
    if (filter.action) query.andWhere(`(e.action ILIKE :action OR e.method || ' ' || e.route ILIKE :action)`, { action: containing(filter.action) });
    if (filter.resource) query.andWhere('(e.resource_id = :resource OR e.path ILIKE :resourcePath)', { resource: filter.resource, resourcePath: containing(filter.resource) });
    if (filter.from) query.andWhere('e.created_at >= :from', { from: filter.from });
    if (filter.to) query.andWhere('e.created_at < :to', { to: filter.to });
    return pageOf(query, newestFirst<AuditEntry>('e'), page, auditEntryView);
  }
}
