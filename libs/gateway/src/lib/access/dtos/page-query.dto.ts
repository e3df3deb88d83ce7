import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** `?limit=&cursor=` of a cursor-paginated list (decisions H2). */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be a whole number from 1 to 100' })
  @Min(1, { message: 'must be a whole number from 1 to 100' })
  @Max(100, { message: 'must be a whole number from 1 to 100' })
  limit?: number;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;
}
