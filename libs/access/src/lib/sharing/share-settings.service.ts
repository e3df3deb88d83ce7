import { Injectable } from '@nestjs/common';
import type { FieldError, ShareSettings, ShareSettingsChanges } from '@gatehouse/contracts';
import { Clock } from '@gatehouse/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { rejectInvalid } from '../shared/invalid';

/** Until staff change them: sharing on, 5 opens a link, a week, 10 links a subscriber a month. */
export const DEFAULT_SHARE_SETTINGS: ShareSettings = { enabled: true, opensPerLink: 5, linkLifetimeHours: 168, monthlyAllowance: 10, updatedAt: null };

const LIMITS = { opensPerLink: [1, 1000], linkLifetimeHours: [1, 8760], monthlyAllowance: [1, 1000] } as const;

export async function shareSettingsOf(db: DataSource | EntityManager, publicationId: string): Promise<ShareSettings> {
  const [row] = await db.query(
    'SELECT enabled, opens_per_link, link_lifetime_hours, monthly_allowance, updated_at FROM share_settings WHERE publication_id = $1',
    [publicationId],
  );
  return row
    ? {
        enabled: row.enabled,
        opensPerLink: row.opens_per_link,
        linkLifetimeHours: row.link_lifetime_hours,
        monthlyAllowance: row.monthly_allowance,
        updatedAt: new Date(row.updated_at).toISOString(),
      }
    : DEFAULT_SHARE_SETTINGS;
}

/** The publication's sharing settings (docs/access.md#shared-articles), staff set. */
@Injectable()
export class ShareSettingsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  get(publicationId: string): Promise<ShareSettings> {
    return shareSettingsOf(this.dataSource, publicationId);
  }

  async update(publicationId: string, changes: ShareSettingsChanges): Promise<ShareSettings> {
    const errors: FieldError[] = [];
    if (changes.enabled !== undefined && typeof changes.enabled !== 'boolean') errors.push({ field: 'enabled', message: 'must be true or false' });
    for (const [field, [min, max]] of Object.entries(LIMITS) as Array<[keyof typeof LIMITS, readonly [number, number]]>) {
      const value = changes[field];
      if (value !== undefined && !(Number.isInteger(value) && value >= min && value <= max)) {
        errors.push({ field, message: `must be a whole number from ${min} to ${max}` });
      }
    }
    rejectInvalid(errors);
    const now = this.clock.now();
    const d = DEFAULT_SHARE_SETTINGS;
    // One statement: a field left out keeps what is stored (or the default), whatever another write did meanwhile.
    const [row] = await this.dataSource.query(
      `INSERT INTO share_settings (publication_id, enabled, opens_per_link, link_lifetime_hours, monthly_allowance, updated_at)
       VALUES ($1, coalesce($2::boolean, $7::boolean), coalesce($3::int, $8::int), coalesce($4::int, $9::int), coalesce($5::int, $10::int), $6)
       ON CONFLICT (publication_id) DO UPDATE SET
         enabled = coalesce($2::boolean, share_settings.enabled), opens_per_link = coalesce($3::int, share_settings.opens_per_link),
         link_lifetime_hours = coalesce($4::int, share_settings.link_lifetime_hours), monthly_allowance = coalesce($5::int, share_settings.monthly_allowance),
         updated_at = EXCLUDED.updated_at
       RETURNING enabled, opens_per_link, link_lifetime_hours, monthly_allowance`,
      [
        publicationId,
        changes.enabled ?? null,
        changes.opensPerLink ?? null,
        changes.linkLifetimeHours ?? null,
        changes.monthlyAllowance ?? null,
        now,
        d.enabled,
        d.opensPerLink,
        d.linkLifetimeHours,
        d.monthlyAllowance,
      ],
    );
    return {
      enabled: row.enabled,
      opensPerLink: row.opens_per_link,
      linkLifetimeHours: row.link_lifetime_hours,
      monthlyAllowance: row.monthly_allowance,
      updatedAt: now.toISOString(),
    };
  }
}
