import { Injectable } from '@nestjs/common';
import { daysBefore, deleteInBatches, RetentionJob } from '@gatehouse/db';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { AdminConfig } from '../admin.config';
import { AUDIT_PRUNE_SETTING } from '../migrations/1796300000000-create-audit-log';
import { SESSION_IDLE_TIMEOUT_MS } from '../sessions/session-lifetime';

export interface AdminPruned {
  /** Staff sessions ended (expired, idle or signed out) before the cutoff. */
  sessions: number;
  /** Entries of the team change log older than its retention. */
  teamChanges: number;
  /** Invitations accepted, revoked or expired before the session cutoff. */
  invitations: number;
  /** Entries of the audit log older than its retention. */
  auditEntries: number;
  /** Imports (their files' rows, readers' names and emails among them) untouched for IMPORT_RETENTION_DAYS. */
  imports: number;
}

/** An import's rows are the publisher's file: kept for its report and a resumed run, not for good. */
export const IMPORT_RETENTION_DAYS = 7;

/**
 * Keeps admin's tables from growing without bound: staff sessions STAFF_SESSION_RETENTION_DAYS
 * after they ended, invitations as long after they were accepted, revoked or expired (the team
 * change log keeps who invited whom), the team change log (the audit trail of who invited, changed or removed
 * whom) after TEAM_CHANGES_RETENTION_DAYS, the audit log of staff writes after AUDIT_LOG_RETENTION_DAYS, and
 * import jobs with their rows after IMPORT_RETENTION_DAYS.
 */
@Injectable()
export class AdminRetention extends RetentionJob<AdminPruned> {
  constructor(
    dataSource: DataSource,
    clock: Clock,
    private readonly config: AdminConfig,
  ) {
    super(dataSource, clock, 'admin');
  }

  protected async round(now: Date): Promise<AdminPruned> {
    const ended = daysBefore(now, this.config.STAFF_SESSION_RETENTION_DAYS);
    // A session idle past the timeout has ended, whatever its absolute expiry.
    const idleSince = new Date(ended.getTime() - SESSION_IDLE_TIMEOUT_MS);
    const sessions = await deleteInBatches(this.dataSource, 'sessions', 'expires_at < $1 OR revoked_at < $1 OR last_seen_at < $2', [ended, idleSince]);
    const teamChanges = await deleteInBatches(this.dataSource, 'team_changes', 'created_at < $1', [daysBefore(now, this.config.TEAM_CHANGES_RETENTION_DAYS)]);
    const invitations = await deleteInBatches(this.dataSource, 'invitations', 'accepted_at < $1 OR revoked_at < $1 OR expires_at < $1', [ended]);
    const auditEntries = await this.pruneAuditLog(daysBefore(now, this.config.AUDIT_LOG_RETENTION_DAYS));
    const importedBefore = daysBefore(now, IMPORT_RETENTION_DAYS);
    await deleteInBatches(this.dataSource, 'import_rows', 'job_id IN (SELECT id FROM import_jobs WHERE updated_at < $1)', [importedBefore], 10_000);
    const imports = await deleteInBatches(this.dataSource, 'import_jobs', 'updated_at < $1', [importedBefore]);
    return { sessions, teamChanges, invitations, auditEntries, imports };
  }

  /**
   * The audit log refuses deletes but from a transaction that says it prunes (its append-only
   * trigger); the setting ends with the transaction. Nothing updates the log, so its batches wait on no writer.
   */
  private pruneAuditLog(before: Date): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT set_config('${AUDIT_PRUNE_SETTING}', 'on', true)`);
      return deleteInBatches(manager, 'audit_entries', 'created_at < $1', [before]);
    });
  }
}
