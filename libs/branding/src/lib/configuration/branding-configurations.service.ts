import { Injectable } from '@nestjs/common';
import { AdminRequests, BRANDING_DEFAULTS, BRANDING_FIELDS, type BrandingChanges, type BrandingConfiguration } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError, Clock, reviewCustomCss } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { BrandingConfigurationRow } from './branding-configuration.entity';

/** Branding per publication (spec 2.7, decisions G2): every read and write is scoped by publicationId. */
@Injectable()
export class BrandingConfigurationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly bus: BusClient,
  ) {}

  async get(publicationId: string): Promise<BrandingConfiguration> {
    const row = await this.dataSource.getRepository(BrandingConfigurationRow).findOneBy({ publicationId });
    return row ? toConfiguration(row) : { ...BRANDING_DEFAULTS };
  }

  /** Omitted fields stay as they are, `null` clears one; answers the whole configuration after the change. */
  async update(publicationId: string, changes: BrandingChanges): Promise<BrandingConfiguration> {
    if (changes.customCss) await this.refuseEscapingCss(publicationId, changes.customCss);
    const changed = BRANDING_FIELDS.filter((field) => changes[field] !== undefined);
    const metadata = this.dataSource.getMetadata(BrandingConfigurationRow);
    const changedColumns = [...changed, 'updatedAt'].flatMap((field) => metadata.findColumnWithPropertyName(field)?.databaseName ?? []);
    const row = {
      ...BRANDING_DEFAULTS,
      ...Object.fromEntries(changed.map((field) => [field, changes[field]])),
      publicationId,
      updatedAt: this.clock.now(),
    };
    return this.dataSource.transaction(async (manager) => {
      // One statement whether or not the publication saved before; on conflict only the fields sent are overwritten.
      await manager.createQueryBuilder().insert().into(BrandingConfigurationRow).values(row).orUpdate(changedColumns, ['publication_id']).execute();
      return toConfiguration(await manager.findOneByOrFail(BrandingConfigurationRow, { publicationId }));
    });
  }

  /** Custom CSS stays inside each component and fetches only from the publication's own domains. */
  private async refuseEscapingCss(publicationId: string, css: string): Promise<void> {
    const { domains } = await this.bus.request(AdminRequests.GetPublication, { publicationId });
    const { problems } = reviewCustomCss(css, domains);
    if (problems.length > 0) throw AppError.invalid('customCss', problems.join('; '));
  }
}

function toConfiguration(row: BrandingConfigurationRow): BrandingConfiguration {
  return Object.fromEntries(BRANDING_FIELDS.map((field) => [field, row[field]])) as unknown as BrandingConfiguration;
}
