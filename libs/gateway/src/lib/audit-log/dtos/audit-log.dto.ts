import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import type { AuditLogFilter } from '@gatehouse/contracts';
import { IsTimestamp } from '@gatehouse/platform';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../edge/page-query.dto';

/** The audit log's filters, for the list and the export alike. */
export class AuditLogFilterDto implements AuditLogFilter {
  @ApiPropertyOptional({ description: "Part of the actor's email, any case.", example: 'ada@' })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  actor?: string;

  @ApiPropertyOptional({ description: 'Part of the operation id (`AdminProductsController_update`) or of `METHOD /route` (`PATCH /api/v1/admin/products/:id`), any case.', example: 'products' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  action?: string;

  @ApiPropertyOptional({ description: 'A resource id: the entries that wrote it, or whose path names it.', example: '5b0e7c1e-4a35-4c1b-9a53-3f0f6d1f2a11' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  resource?: string;

  @ApiPropertyOptional({ description: 'ISO 8601 time: entries at or after it.' })
  @IsOptional()
  @IsTimestamp()
  from?: string;

  @ApiPropertyOptional({ description: 'ISO 8601 time: entries before it.' })
  @IsOptional()
  @IsTimestamp()
  to?: string;
}

export class AuditLogQueryDto extends IntersectionType(AuditLogFilterDto, PageQueryDto) {}
