import { Controller } from '@nestjs/common';
import { AuditRequests, type AuditEntryView, type Page, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { AuditLogService } from './audit-log.service';

const { Record, List } = AuditRequests;

@Controller()
export class AuditLogHandler {
  constructor(private readonly auditLog: AuditLogService) {}

  @Handles(Record)
  async record(record: RequestOf<typeof Record>): Promise<{ recorded: true }> {
    await this.auditLog.record(record);
    return { recorded: true };
  }

  @Handles(List)
  list({ publicationId, filter, limit, cursor }: RequestOf<typeof List>): Promise<Page<AuditEntryView>> {
    return this.auditLog.list(publicationId, filter, { limit, cursor });
  }
}
