import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AdminConfig } from '../admin.config';
import { PublicationsService } from '../publications/publications.service';
import { StaffService } from '../staff/staff.service';

interface BootstrapSettings {
  email: string;
  password: string;
  staffName: string;
  publicationName: string;
  domains: string[];
}

/** Decisions A3: on a fresh installation, the first admin and publication come from BOOTSTRAP_*. */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger(BootstrapService.name);

  constructor(
    private readonly config: AdminConfig,
    private readonly dataSource: DataSource,
    private readonly staff: StaffService,
    private readonly publications: PublicationsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const settings = bootstrapSettings(this.config);
    if (!settings || (await this.staff.anyExists())) return;
    // Replicas starting together queue on the lock; the first creates, the others then find staff.
    const created = await this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('admin:bootstrap'))`);
      if (await this.staff.anyExists(manager)) return false;
      const admin = await this.staff.register({ email: settings.email, name: settings.staffName, password: settings.password }, manager);
      await this.publications.createWithAdmin(manager, admin.id, { name: settings.publicationName, domains: settings.domains });
      return true;
    });
    if (created) this.logger.log(`Created the first admin ${settings.email} and the publication "${settings.publicationName}"`);
  }
}

/** Null unless all four required variables are set: half a bootstrap would leave an admin without a publication. */
function bootstrapSettings(config: AdminConfig): BootstrapSettings | null {
  const { BOOTSTRAP_ADMIN_EMAIL: email, BOOTSTRAP_ADMIN_PASSWORD: password, BOOTSTRAP_PUBLICATION_NAME: publicationName } = config;
  const domains = config.BOOTSTRAP_PUBLICATION_DOMAINS;
  if (!email || !password || !publicationName || !domains) return null;
  return {
    email,
    password,
    staffName: config.BOOTSTRAP_ADMIN_NAME ?? email.slice(0, email.indexOf('@')),
    publicationName,
    domains: domains.split(','),
  };
}
