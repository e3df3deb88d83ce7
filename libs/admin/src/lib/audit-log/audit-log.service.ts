import { Injectable } from '@nestjs/common';
import type { AuditEntryView, AuditLogFilter, AuditRecord, Page, PageRequest } from '@gatehouse/contracts';
import { newestFirst, pageOf } from '@gatehouse/db';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { AuditEntry, auditEntryView } from './audit-entry.entity';

const APPEND = `
  INSERT INTO audit_entries (id, publication_id, staff_id, actor_email, actor_name, action, method, route, path, resource_id, changes, address, request_id, created_at)
  SELECT $1::uuid, $2::uuid, $3::uuid, coalesce(s.email, ''), coalesce(s.name, ''), $4::text, $5::text, $6::text, $7::text, $8::text, $9::jsonb, $10::text, $11::text, $12::timestamptz
  FROM (SELECT 1) AS one LEFT JOIN staff s ON s.id = $3::uuid
  ON CONFLICT (id) DO NOTHING`;

/** `%text%` for ILIKE, the text's own `%`, `_` and `\` taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** The publications' audit logs: appended to by the gateway, read by staff. */
@Injectable()
export class AuditLogService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** One statement: the actor's email and name as they are now go with the entry, which a second sending leaves as it is. */
  async append(record: AuditRecord): Promise<void> {
    await this.dataSource.query(APPEND, [
      record.id,
      record.publicationId,
      record.staffId,
      record.action,
      record.method,
      record.route,
      record.path,
      record.resourceId,
      record.changes === null ? null : JSON.stringify(record.changes),
      record.address,
      record.requestId,
      this.clock.now(),
    ]);
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
