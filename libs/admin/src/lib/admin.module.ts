import { Module } from '@nestjs/common';
import type { ServiceDefinition } from '@gatehouse/platform';
import { AdminConfig } from './admin.config';
import { ApiKey } from './api-keys/api-key.entity';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuditEntry } from './audit-log/audit-entry.entity';
import { AuditLogModule } from './audit-log/audit-log.module';
import { BootstrapModule } from './bootstrap/bootstrap.module';
import { ImportJob } from './imports/import-job.entity';
import { ImportsModule } from './imports/imports.module';
import { CreateImportJobs1796200000000 } from './migrations/1796200000000-create-import-jobs';
import { CreateAdminTables1763720000000 } from './migrations/1763720000000-create-admin-tables';
import { CreateStaffLoginFailures1763800000000 } from './migrations/1763800000000-create-staff-login-failures';
import { CountStaffLoginsInThrottleCounters1764100000000 } from './migrations/1764100000000-count-staff-logins-in-throttle-counters';
import { Membership } from './publications/membership.entity';
import { Publication } from './publications/publication.entity';
import { PublicationsModule } from './publications/publications.module';
import { AdminRetention } from './retention/admin-retention.service';
import { Session } from './sessions/session.entity';
import { SessionsModule } from './sessions/sessions.module';
import { Staff } from './staff/staff.entity';
import { StatsModule } from './stats/stats.module';
import { CreateTeamTables1764000000000 } from './migrations/1764000000000-create-team-tables';
import { KeepPublishableKeys1764100000000 } from './migrations/1764100000000-keep-publishable-keys';
import { AddSelfRegistrationSetting1764240000000 } from './migrations/1764240000000-add-self-registration-setting';
import { AddDomainProofs1764200000000 } from './migrations/1764200000000-add-domain-proofs';
import { CreateAuditLog1796300000000 } from './migrations/1796300000000-create-audit-log';
import { Invitation } from './team/invitation.entity';
import { TeamChange } from './team/team-change.entity';
import { TeamModule } from './team/team.module';

@Module({ imports: [PublicationsModule, SessionsModule, ApiKeysModule, BootstrapModule, StatsModule, TeamModule, AuditLogModule, ImportsModule], providers: [AdminRetention] })
export class AdminModule {}

export { AdminRetention };

/** Staff and their team invitations, sessions, publications and their domains, API keys, the audit log, the stats view, and imports of subscribers. */
export const adminService: ServiceDefinition<AdminConfig> = {
  name: 'admin',
  schema: 'admin',
  module: AdminModule,
  config: AdminConfig,
  entities: [Publication, Membership, Staff, Session, ApiKey, Invitation, TeamChange, AuditEntry, ImportJob],
  migrations: [CreateAdminTables1763720000000, CreateStaffLoginFailures1763800000000, CreateTeamTables1764000000000, KeepPublishableKeys1764100000000, CountStaffLoginsInThrottleCounters1764100000000, AddDomainProofs1764200000000, AddSelfRegistrationSetting1764240000000, CreateImportJobs1796200000000, CreateAuditLog1796300000000],
};
