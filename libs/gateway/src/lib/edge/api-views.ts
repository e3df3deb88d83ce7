import type { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode, type FieldError, type Page, type ProblemDetails } from '@gatehouse/contracts';

/*
 * Response classes shared by every route. Each response class implements its contract type, so the
 * compiler keeps /docs and `libs/contracts` one shape; the conformance test checks the real answers.
 */

class FieldErrorDto implements FieldError {
  @ApiProperty({ example: 'email' }) field: string;
  @ApiProperty({ example: 'must be an email address' }) message: string;
}

/** Decisions B1: the body of every error. */
export class ProblemDetailsDto implements ProblemDetails {
  @ApiProperty({ example: 'https://gatehouse.dev/problems/validation-failed' }) type: string;
  @ApiProperty({ example: 'Validation failed' }) title: string;
  @ApiProperty({ example: 400 }) status: number;
  @ApiProperty({ example: 'The request is invalid.' }) detail: string;
  @ApiProperty({ enum: ERROR_CODES, example: 'validation_failed', description: 'Stable: clients branch on it.' }) code: ErrorCode;
  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'With `validation_failed`: each invalid field.' }) errors?: FieldErrorDto[];
}

/** A cursor page of `item` (decisions H2), named `name` in /docs. */
export function PageOf<T>(item: Type<T>, name: string): Type<Page<T>> {
  class PageDto implements Page<T> {
    @ApiProperty({ type: [item] }) items: T[];
    @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.', example: null })
    nextCursor: string | null;
  }
  Object.defineProperty(PageDto, 'name', { value: name });
  return PageDto;
}
