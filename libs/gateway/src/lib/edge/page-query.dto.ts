import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '@gatehouse/contracts';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

const LIMIT_MESSAGE = { message: `must be a whole number from 1 to ${PAGE_SIZE_MAX}` };

/** `?limit=&cursor=` of a cursor-paginated list (decisions H2). */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT })
  @IsOptional()
  @Type(() => Number)
  @IsInt(LIMIT_MESSAGE)
  @Min(1, LIMIT_MESSAGE)
  @Max(PAGE_SIZE_MAX, LIMIT_MESSAGE)
  limit?: number;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;
}
