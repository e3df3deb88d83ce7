import { Controller } from '@nestjs/common';
import { AuditRequests, type AuditEntryView, type Page, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { AuditLogService } from './audit-log.service';

const { Append, List } = AuditRequests;

@Controller()
export class AuditLogHandler {
  constructor(private readonly auditLog: AuditLogService) {}

  @Handles(Append)
  async append(record: RequestOf<typeof Append>): Promise<{ appended: true }> {
    await this.auditLog.append(record);
    return { appended: true };
  }

  @Handles(List)
  list({ publicationId, filter, limit, cursor }: RequestOf<typeof List>): Promise<Page<AuditEntryView>> {
    return this.auditLog.list(publicationId, filter, { limit, cursor });
  }
}
