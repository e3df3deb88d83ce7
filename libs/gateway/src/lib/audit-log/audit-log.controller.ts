import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AUDIT_CSV_COLUMNS, AuditRequests, auditCsvCells, csvLine, PAGE_SIZE_MAX, type AuditEntryView, type AuditLogFilter, type Page } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError } from '@gatehouse/platform';
import { Readable } from 'node:stream';
import { Auth } from '../edge/credentials';
import { Caller, publicationOf, type Principal } from '../edge/principal';
import { AuditLogFilterDto, AuditLogQueryDto } from './dtos/audit-log.dto';
import { AuditEntryPageDto } from './dtos/audit-log-views.dto';

const FILTER_REFUSAL = '`validation_failed`: a bad filter, `from` not before `to`, a bad `limit`, or a `cursor` this list did not issue';

/**
 * The audit log: read only, for every member (viewers included: it holds no secret, and they read
 * everything else) and the secret key. There is no route that writes it; the gateway does.
 */
@ApiTags('admin audit log')
@Controller('admin/audit-log')
export class AuditLogController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session-or-secret')
  @ApiOperation({ summary: 'Every staff write of the publication (who, when, what, from where), newest first, filtered, cursor paginated.' })
  @ApiOkResponse({ type: AuditEntryPageDto })
  @ApiResponse({ status: 400, description: FILTER_REFUSAL })
  list(@Caller() caller: Principal, @Query() query: AuditLogQueryDto): Promise<Page<AuditEntryView>> {
    const { limit, cursor, ...filter } = query;
    return this.page(caller, filter, { limit, cursor });
  }

  @Get('export')
  @Auth('session-or-secret')
  @ApiOperation({ summary: 'The filtered audit log as one CSV file, newest first (the list’s columns, `changes` as JSON).' })
  @ApiOkResponse({ description: `CSV with a header line: ${AUDIT_CSV_COLUMNS.join(', ')}.`, content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiResponse({ status: 400, description: '`validation_failed`: a bad filter, or `from` not before `to`' })
  async export(@Caller() caller: Principal, @Query() filter: AuditLogFilterDto): Promise<StreamableFile> {
    // The first page is read before answering, so a refusal is still problem details.
    const first = await this.page(caller, filter, { limit: PAGE_SIZE_MAX });
    return new StreamableFile(Readable.from(this.csvLines(caller, filter, first)), { type: 'text/csv; charset=utf-8', disposition: 'attachment; filename="audit-log.csv"' });
  }

  /** The header, then every entry, a page at a time (each page one bus request). */
  private async *csvLines(caller: Principal, filter: AuditLogFilter, first: Page<AuditEntryView>): AsyncGenerator<string> {
    yield csvLine([...AUDIT_CSV_COLUMNS]) + '\r\n';
    for (let page = first; ; ) {
      for (const entry of page.items) yield csvLine(auditCsvCells(entry)) + '\r\n';
      if (!page.nextCursor) return;
      page = await this.page(caller, filter, { limit: PAGE_SIZE_MAX, cursor: page.nextCursor });
    }
  }

  private page(caller: Principal, filter: AuditLogFilter, page: { limit?: number; cursor?: string }): Promise<Page<AuditEntryView>> {
    if (filter.from && filter.to && new Date(filter.from) >= new Date(filter.to)) throw AppError.invalid('from', 'must be before to');
    return this.bus.request(AuditRequests.List, { publicationId: publicationOf(caller), filter, ...page });
  }
}
