import type { Page, PageRequest } from './pagination';
import { requestPattern } from './patterns';

/*
 * The audit log (issue 27 item 7): every staff write made through the gateway, one append-only
 * log per publication. The gateway records each successful write of a staff session; admin keeps it.
 */

/** What a write's JSON body changed, secrets redacted. */
export type AuditChanges = Record<string, unknown> | unknown[];

/** One staff write as the gateway saw it succeed. */
export interface AuditRecord {
  /** Chosen by the gateway: a record sent twice is kept once. */
  id: string;
  publicationId: string;
  staffId: string;
  /** The route's OpenAPI operation id, e.g. `AdminProductsController_update`. */
  action: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route as declared, e.g. `/api/v1/admin/products/:id`. */
  route: string;
  /** The path called, e.g. `/api/v1/admin/products/5b0e…`. */
  path: string;
  /** The resource written: the answer's `id` (a creation), else the path's last id; null when neither has one. */
  resourceId: string | null;
  /** The request body with every secret (passwords, keys, tokens, secrets) replaced by `[redacted]`; null without a body. */
  changes: AuditChanges | null;
  /** The client's address (`X-Forwarded-For` only behind TRUST_PROXY, as for rate limits). */
  address: string;
  requestId: string;
}

export interface AuditEntryView {
  id: string;
  /** ISO time the write was answered. */
  at: string;
  actor: { staffId: string; email: string; name: string };
  action: string;
  method: string;
  route: string;
  path: string;
  resourceId: string | null;
  changes: AuditChanges | null;
  address: string;
  requestId: string;
}

/** `GET /api/v1/admin/audit-log`: each filter narrows; text filters match case-insensitively anywhere. */
export interface AuditLogFilter {
  /** Part of the actor's email. */
  actor?: string;
  /** Part of the operation id or of `METHOD /route`. */
  action?: string;
  /** A resource id: entries that wrote it, or whose path names it. */
  resource?: string;
  /** ISO time, inclusive. */
  from?: string;
  /** ISO time, exclusive. */
  to?: string;
}

/** The columns of the audit log's CSV export, in order. */
export const AUDIT_CSV_COLUMNS = ['at', 'actor_email', 'actor_name', 'action', 'method', 'route', 'path', 'resource_id', 'address', 'request_id', 'changes'] as const;

export function auditCsvCells(entry: AuditEntryView): Array<string | null> {
  return [
    entry.at,
    entry.actor.email,
    entry.actor.name,
    entry.action,
    entry.method,
    entry.route,
    entry.path,
    entry.resourceId,
    entry.address,
    entry.requestId,
    entry.changes === null ? null : JSON.stringify(entry.changes),
  ];
}

export const AuditRequests = {
  /** Appends one entry; the same `id` twice is recorded once. */
  Append: requestPattern<AuditRecord, { appended: true }>('admin.audit-log.append'),
  /** Newest first, cursor paginated. */
  List: requestPattern<{ publicationId: string; filter: AuditLogFilter } & PageRequest, Page<AuditEntryView>>('admin.audit-log.list'),
} as const;
