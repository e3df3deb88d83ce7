import { Injectable } from '@nestjs/common';
import { AdminRequests, BRANDING_DEFAULTS, BRANDING_FIELDS, type BrandingChanges, type BrandingConfiguration, type BrandingRevision } from '@gatehouse/contracts';
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

  async get(publicationId: string): Promise<BrandingRevision> {
    const row = await this.dataSource.getRepository(BrandingConfigurationRow).findOneBy({ publicationId });
    return row ? revisionOf(row) : { configuration: { ...BRANDING_DEFAULTS }, revision: 0 };
  }

  /**
   * Omitted fields stay as they are, `null` clears one; answers the whole configuration after the
   * change. One statement whether or not the publication saved before, which also checks
   * `ifRevisions` against the stored revision: no read in between for another save to slip into.
   */
  async update(publicationId: string, changes: BrandingChanges, ifRevisions?: number[]): Promise<BrandingRevision> {
    if (changes.customCss) await this.refuseEscapingCss(publicationId, changes.customCss);
    const metadata = this.dataSource.getMetadata(BrandingConfigurationRow);
    const column = (field: string) => metadata.findColumnWithPropertyName(field)?.databaseName ?? field;
    const changed = BRANDING_FIELDS.filter((field) => changes[field] !== undefined);
    const inserted: Record<string, unknown> = { ...BRANDING_DEFAULTS, ...Object.fromEntries(changed.map((field) => [field, changes[field]])) };
    const now = this.clock.now();
    let sql: string;
    let params: unknown[];
    if (ifRevisions === undefined || ifRevisions.includes(0)) {
      // A publication that never saved is at revision 0: the insert is its first save.
      const columns = [...BRANDING_FIELDS.map(column), 'updated_at'];
      params = [publicationId, ...BRANDING_FIELDS.map((field) => inserted[field]), now];
      const set = [...changed.map(column), 'updated_at'].map((name) => `${name} = EXCLUDED.${name}`).join(', ');
      const condition = ifRevisions === undefined ? '' : ` WHERE branding_configurations.revision = ANY($${params.push(ifRevisions)}::int[])`;
      sql = `INSERT INTO branding_configurations (publication_id, ${columns.join(', ')}, revision) VALUES ($1, ${columns.map((_, i) => `$${i + 2}`).join(', ')}, 1)
             ON CONFLICT (publication_id) DO UPDATE SET ${set}, revision = branding_configurations.revision + 1${condition} RETURNING *`;
    } else {
      params = [publicationId, ifRevisions, now, ...changed.map((field) => changes[field])];
      const assignments = changed.map((field, i) => `${column(field)} = $${i + 4}`).join(', ');
      sql = `UPDATE branding_configurations SET ${assignments}${assignments ? ', ' : ''}updated_at = $3, revision = revision + 1
             WHERE publication_id = $1 AND revision = ANY($2::int[]) RETURNING *`;
    }
    const rows = await this.returning(sql, params);
    if (rows.length === 0) {
      throw new AppError('precondition_failed', 'Someone else changed the branding since you opened it. Reload to see their changes, then apply yours again.');
    }
    const row = Object.fromEntries(metadata.columns.map((c) => [c.propertyName, rows[0][c.databaseName]])) as unknown as BrandingConfigurationRow;
    return revisionOf(row);
  }

  /** The rows a statement returned (`DataSource.query` answers an UPDATE with `[rows, count]`, an INSERT with the rows). */
  private async returning(sql: string, params: unknown[]): Promise<Array<Record<string, unknown>>> {
    const runner = this.dataSource.createQueryRunner();
    try {
      return (await runner.query(sql, params, true)).records;
    } finally {
      await runner.release();
    }
  }

  /** Custom CSS stays inside each component and fetches only from the publication's own domains. */
  private async refuseEscapingCss(publicationId: string, css: string): Promise<void> {
    const { domains } = await this.bus.request(AdminRequests.GetPublication, { publicationId });
    const { problems } = reviewCustomCss(css, domains);
    if (problems.length > 0) throw AppError.invalid('customCss', problems.join('; '));
  }
}

function revisionOf(row: BrandingConfigurationRow): BrandingRevision {
  const configuration = Object.fromEntries(BRANDING_FIELDS.map((field) => [field, row[field]])) as unknown as BrandingConfiguration;
  return { configuration, revision: row.revision };
}
