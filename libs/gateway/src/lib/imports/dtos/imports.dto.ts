import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IMPORT_PROBLEMS_SHOWN, IMPORT_STATUSES, type ImportCounts, type ImportJobSummary, type ImportJobView, type ImportStatus, type RowProblem } from '@gatehouse/contracts';
import { IsIn, IsOptional } from 'class-validator';
import { PageOf } from '../../edge/api-views';

export class ImportQueryDto {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description: 'true: each reader the import creates gets the address verification message. Imported readers get no email otherwise.',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'must be true or false' })
  notifyReaders?: 'true' | 'false';
}

class ImportCountsDto implements ImportCounts {
  @ApiProperty({ description: 'Created by the import; while checking, those that would be.' }) created: number;
  @ApiProperty({ description: 'Already there, so left as they were.' }) unchanged: number;
}

class RowProblemDto implements RowProblem {
  @ApiProperty({ description: 'The line of the file the row starts on (the CSV header is line 1).' }) line: number;
  @ApiProperty({ example: 'no price of "Digital" at 900 usd a month in this publication: create it first' }) reason: string;
}

export class ImportJobSummaryDto implements ImportJobSummary {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({
    enum: IMPORT_STATUSES,
    description: '`checking`: the dry run in progress; `checked`: its report stands and nothing was imported; `importing`; `imported`. (`uploading` while the file arrives.)',
  })
  status: ImportStatus;
  @ApiProperty() notifyReaders: boolean;
  @ApiProperty() totalRows: number;
  @ApiProperty({ description: 'Rows the current pass (the check, then the import) went through.' }) processedRows: number;
  @ApiProperty({ description: 'Bad rows: the import skips them.' }) failedRows: number;
  @ApiProperty({ type: ImportCountsDto }) customers: ImportCountsDto;
  @ApiProperty({ type: ImportCountsDto }) subscriptions: ImportCountsDto;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class ImportJobViewDto extends ImportJobSummaryDto implements ImportJobView {
  @ApiProperty({ type: [RowProblemDto], description: `The first ${IMPORT_PROBLEMS_SHOWN} bad rows, by line, each with why.` }) problems: RowProblemDto[];
}

export const ImportJobPageDto = PageOf(ImportJobSummaryDto, 'ImportJobPageDto');
