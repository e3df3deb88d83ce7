import { Module } from '@nestjs/common';
import { AuditLogHandler } from './audit-log.handler';
import { AuditLogService } from './audit-log.service';

@Module({ controllers: [AuditLogHandler], providers: [AuditLogService] })
export class AuditLogModule {}
