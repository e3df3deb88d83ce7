import { ApiPropertyOptional } from '@nestjs/swagger';
import type { ReaderFacts } from '@gatehouse/contracts';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { VisitorStatementDto } from './access-check.dto';

/**
 * What a reader states of themselves away from an access check, where a segment decides (an offer
 * limited to one, docs/billing.md): the access check's own parameters, read by the same rules.
 */
export class ReaderFactsDto extends VisitorStatementDto implements ReaderFacts {
  @ApiPropertyOptional({
    example: 'https://news.example.com/premium/story?utm_campaign=spring',
    maxLength: 2048,
    description: "The page the reader is on, on a domain of the publication: its path and `utm_*` are the reader's, as for an access check of it.",
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string;
}
