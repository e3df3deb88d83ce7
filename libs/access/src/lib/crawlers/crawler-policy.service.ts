import { Injectable } from '@nestjs/common';
import { AI_CRAWLER_RULES, SEARCH_CRAWLER_RULES, type AccessReason, type CrawlerPolicy } from '@gatehouse/contracts';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { rejectInvalid } from '../shared/invalid';
import { CrawlerVerification } from './crawler-verification';
import { aiCrawlerOf, searchEngineOf } from './known-crawlers';

const DEFAULT_POLICY: CrawlerPolicy = { searchEngines: 'meter', aiCrawlers: 'meter', updatedAt: null };

/** What the crawler policy decides for a request to a page a paywall covers; null: decide as for any visitor. */
export interface CrawlerDecision {
  granted: boolean;
  reason: Extract<AccessReason, 'search_crawler_granted' | 'search_crawler_denied' | 'ai_crawler_allowed' | 'ai_crawler_denied'>;
}

/** The per-publication crawler policy and its application to one request. */
@Injectable()
export class CrawlerPolicyService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly verification: CrawlerVerification,
  ) {}

  async get(publicationId: string): Promise<CrawlerPolicy> {
    const [row] = await this.dataSource.query('SELECT search_engines, ai_crawlers, updated_at FROM crawler_policies WHERE publication_id = $1', [publicationId]);
    return row ? { searchEngines: row.search_engines, aiCrawlers: row.ai_crawlers, updatedAt: new Date(row.updated_at).toISOString() } : DEFAULT_POLICY;
  }

  async update(publicationId: string, changes: Partial<Pick<CrawlerPolicy, 'searchEngines' | 'aiCrawlers'>>): Promise<CrawlerPolicy> {
    rejectInvalid([
      ...(changes.searchEngines !== undefined && !SEARCH_CRAWLER_RULES.includes(changes.searchEngines) ? [{ field: 'searchEngines', message: `must be one of ${SEARCH_CRAWLER_RULES.join(', ')}` }] : []),
      ...(changes.aiCrawlers !== undefined && !AI_CRAWLER_RULES.includes(changes.aiCrawlers) ? [{ field: 'aiCrawlers', message: `must be one of ${AI_CRAWLER_RULES.join(', ')}` }] : []),
    ]);
    const current = await this.get(publicationId);
    const next = { searchEngines: changes.searchEngines ?? current.searchEngines, aiCrawlers: changes.aiCrawlers ?? current.aiCrawlers };
    const now = this.clock.now();
    await this.dataSource.query(
      `INSERT INTO crawler_policies (publication_id, search_engines, ai_crawlers, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (publication_id) DO UPDATE SET search_engines = EXCLUDED.search_engines, ai_crawlers = EXCLUDED.ai_crawlers, updated_at = EXCLUDED.updated_at`,
      [publicationId, next.searchEngines, next.aiCrawlers, now],
    );
    return { ...next, updatedAt: now.toISOString() };
  }

  /**
   * AI crawlers by User-Agent; search engines by User-Agent and a verified address (a spoofed
   * User-Agent from any other address is an ordinary visitor). The policy is read only for crawlers.
   */
  async decide(publicationId: string, client: { userAgent: string | null; ip: string | null } | undefined): Promise<CrawlerDecision | null> {
    const userAgent = client?.userAgent ?? '';
    if (!userAgent) return null;
    if (aiCrawlerOf(userAgent)) {
      const rule = (await this.get(publicationId)).aiCrawlers;
      return rule === 'meter' ? null : { granted: rule === 'allow', reason: rule === 'allow' ? 'ai_crawler_allowed' : 'ai_crawler_denied' };
    }
    const engine = searchEngineOf(userAgent);
    if (!engine || !client?.ip) return null;
    const rule = (await this.get(publicationId)).searchEngines;
    if (rule === 'meter' || !(await this.verification.verify(engine, client.ip))) return null;
    return { granted: rule === 'grant', reason: rule === 'grant' ? 'search_crawler_granted' : 'search_crawler_denied' };
  }
}
