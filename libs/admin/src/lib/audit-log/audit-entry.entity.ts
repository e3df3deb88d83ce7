import type { AuditChanges, AuditEntryView } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One staff write, as the gateway saw it succeed. Append-only: a trigger refuses UPDATE and
 * TRUNCATE, and DELETE but from the retention round (see the migration).
 */
@Entity({ name: 'audit_entries' })
export class AuditEntry {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ name: 'staff_id', type: 'uuid' })
  staffId: string;

  /** The actor's email and name when the write was made: kept after they change or leave. */
  @Column({ name: 'actor_email', type: 'text' })
  actorEmail: string;

  @Column({ name: 'actor_name', type: 'text' })
  actorName: string;

  @Column({ type: 'text' })
  action: string;

  @Column({ type: 'text' })
  method: string;

  @Column({ type: 'text' })
  route: string;

  @Column({ type: 'text' })
  path: string;

  @Column({ name: 'resource_id', type: 'text', nullable: true })
  resourceId: string | null;

  @Column({ type: 'jsonb', nullable: true })
  changes: AuditChanges | null;

  @Column({ type: 'text' })
  address: string;

  @Column({ name: 'request_id', type: 'text' })
  requestId: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

export function auditEntryView(entry: AuditEntry): AuditEntryView {
  return {
    id: entry.id,
    at: entry.createdAt.toISOString(),
    actor: { staffId: entry.staffId, email: entry.actorEmail, name: entry.actorName },
    action: entry.action,
    method: entry.method,
    route: entry.route,
    path: entry.path,
    resourceId: entry.resourceId,
    changes: entry.changes,
    address: entry.address,
    requestId: entry.requestId,
  };
}
