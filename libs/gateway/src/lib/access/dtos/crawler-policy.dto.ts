import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AI_CRAWLER_RULES, SEARCH_CRAWLER_RULES, type AiCrawlerRule, type CrawlerPolicy, type SearchCrawlerRule } from '@gatehouse/contracts';
import { IsIn, IsOptional } from 'class-validator';

const SEARCH = 'Verified search-engine crawlers (reverse and forward DNS, else the published ranges): `grant` the page, `meter` (decide as for any visitor) or `deny` it.';
const AI = 'AI crawlers by User-Agent (GPTBot, ClaudeBot, CCBot, PerplexityBot, Google-Extended, …): `allow`, `meter` (decide as for any visitor) or `deny`.';

export class UpdateCrawlerPolicyDto {
  @ApiPropertyOptional({ enum: SEARCH_CRAWLER_RULES, description: SEARCH })
  @IsOptional()
  @IsIn(SEARCH_CRAWLER_RULES)
  searchEngines?: SearchCrawlerRule;

  @ApiPropertyOptional({ enum: AI_CRAWLER_RULES, description: AI })
  @IsOptional()
  @IsIn(AI_CRAWLER_RULES)
  aiCrawlers?: AiCrawlerRule;
}

export class CrawlerPolicyDto implements CrawlerPolicy {
  @ApiProperty({ enum: SEARCH_CRAWLER_RULES, description: SEARCH }) searchEngines: SearchCrawlerRule;
  @ApiProperty({ enum: AI_CRAWLER_RULES, description: AI }) aiCrawlers: AiCrawlerRule;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Null until first changed.' }) updatedAt: string | null;
}
