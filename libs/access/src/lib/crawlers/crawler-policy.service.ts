import { Injectable } from '@nestjs/common';
import { AI_CRAWLER_RULES, SEARCH_CRAWLER_RULES, type CrawlerPolicy } from '@gatehouse/contracts';
import { Clock } from '@gatehouse/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { rejectInvalid } from '../shared/invalid';
import { RulesWrites } from '../shared/rules-writes.service';

const DEFAULT_POLICY: CrawlerPolicy = { searchEngines: 'meter', aiCrawlers: 'meter', updatedAt: null };

/** The publication's crawler policy as stored, or the default. */
export async function crawlerPolicyOf(db: DataSource | EntityManager, publicationId: string): Promise<CrawlerPolicy> {
  const [row] = await db.query('SELECT search_engines, ai_crawlers, updated_at FROM crawler_policies WHERE publication_id = $1', [publicationId]);
  return row ? { searchEngines: row.search_engines, aiCrawlers: row.ai_crawlers, updatedAt: new Date(row.updated_at).toISOString() } : DEFAULT_POLICY;
}

/** The per-publication crawler policy (its application to a request is the access decision's: `@gatehouse/access-decisions`). */
@Injectable()
export class CrawlerPolicyService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly rules: RulesWrites,
  ) {}

  get(publicationId: string): Promise<CrawlerPolicy> {
    return crawlerPolicyOf(this.dataSource, publicationId);
  }

  async update(publicationId: string, changes: Partial<Pick<CrawlerPolicy, 'searchEngines' | 'aiCrawlers'>>): Promise<CrawlerPolicy> {
    rejectInvalid([
      ...(changes.searchEngines !== undefined && !SEARCH_CRAWLER_RULES.includes(changes.searchEngines) ? [{ field: 'searchEngines', message: `must be one of ${SEARCH_CRAWLER_RULES.join(', ')}` }] : []),
      ...(changes.aiCrawlers !== undefined && !AI_CRAWLER_RULES.includes(changes.aiCrawlers) ? [{ field: 'aiCrawlers', message: `must be one of ${AI_CRAWLER_RULES.join(', ')}` }] : []),
    ]);
    const now = this.clock.now();
    // One statement: a field left out keeps what is stored (or the default), whatever another write did meanwhile.
    const [stored] = await this.rules.write(publicationId, (manager) =>
      manager.query(
        `INSERT INTO crawler_policies (publication_id, search_engines, ai_crawlers, updated_at) VALUES ($1, coalesce($2, $5), coalesce($3, $6), $4)
         ON CONFLICT (publication_id) DO UPDATE SET search_engines = coalesce($2, crawler_policies.search_engines), ai_crawlers = coalesce($3, crawler_policies.ai_crawlers), updated_at = EXCLUDED.updated_at
         RETURNING search_engines, ai_crawlers`,
        [publicationId, changes.searchEngines ?? null, changes.aiCrawlers ?? null, now, DEFAULT_POLICY.searchEngines, DEFAULT_POLICY.aiCrawlers],
      ),
    );
    return { searchEngines: stored.search_engines, aiCrawlers: stored.ai_crawlers, updatedAt: now.toISOString() };
  }
}
