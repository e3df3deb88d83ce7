import { Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IMPORT_UPLOAD_BATCH, ImportRequests, TRANSFER_COLUMNS, type ImportJobSummary, type ImportJobView, type ImportRow, type Page, type RowProblem } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError } from '@gatehouse/platform';
import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Auth } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Idempotent } from '../edge/idempotency.service';
import { PageQueryDto } from '../edge/page-query.dto';
import { Caller, publicationOf, type Principal } from '../edge/principal';
import { ImportJobPageDto, ImportJobViewDto, ImportQueryDto } from './dtos/imports.dto';
import { IMPORT_BODY_LIMIT, IMPORT_MEDIA_TYPES, isProblem, recordsOf, rowOf } from './import-file';

const FILE_DESCRIPTION =
  `CSV with a header line (columns ${TRANSFER_COLUMNS.join(', ')}; only email and name are required), or JSON Lines: one object per line keyed by the same columns. ` +
  'A row is a customer and at most one subscription: a plan (product, interval, currency, amount: all four or none) linked to `processor_subscription_id` when given, a manual grant until `current_period_end` (never, when empty) otherwise.';

@ApiTags('admin imports')
@Controller('admin/imports')
export class ImportsController {
  constructor(private readonly bus: BusClient) {}

  @Post()
  @Auth('session-or-secret')
  @ApiOperation({
    summary: 'Upload a file of customers and subscriptions: its dry run starts at once (`checking`); poll the job for its report, then run it.',
    description: `${FILE_DESCRIPTION} Nothing is imported until \`POST /admin/imports/{id}/run\`. At most ${IMPORT_BODY_LIMIT / 1024 / 1024} MiB.`,
  })
  @ApiConsumes(...Object.keys(IMPORT_MEDIA_TYPES))
  @ApiBody({ schema: { type: 'string', example: 'email,name,product,interval,currency,amount,current_period_end\nada@example.com,Ada Lovelace,Digital,month,usd,900,2027-01-31\n' } })
  @ApiCreatedResponse({ type: ImportJobViewDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: a header naming an unknown column or lacking email or name, a file without rows, a bad `notifyReaders`' })
  @ApiResponse({ status: 413, description: `\`payload_too_large\`: the file is over ${IMPORT_BODY_LIMIT / 1024 / 1024} MiB` })
  @ApiResponse({ status: 415, description: '`unsupported_media_type`: the body is neither text/csv nor application/x-ndjson' })
  async upload(@Caller() caller: Principal, @Query() query: ImportQueryDto, @Req() request: FastifyRequest): Promise<ImportJobView> {
    const format = IMPORT_MEDIA_TYPES[mediaTypeOf(request) as keyof typeof IMPORT_MEDIA_TYPES];
    if (!format || !(request.body instanceof Readable)) {
      throw new AppError('unsupported_media_type', `Send the file as ${Object.keys(IMPORT_MEDIA_TYPES).join(' or ')}.`);
    }
    const publicationId = publicationOf(caller);
    let jobId: string | null = null;
    const rows: ImportRow[] = [];
    const problems: RowProblem[] = [];
    const send = async () => {
      jobId ??= (await this.bus.request(ImportRequests.Create, { publicationId, notifyReaders: query.notifyReaders === 'true' })).id;
      await this.bus.request(ImportRequests.AddRows, { publicationId, jobId, rows: rows.splice(0), problems: problems.splice(0) });
    };
    try {
      for await (const record of recordsOf(request.body, format)) {
        const row = rowOf(record);
        if (isProblem(row)) problems.push(row);
        else rows.push(row);
        if (rows.length + problems.length >= IMPORT_UPLOAD_BATCH) await send();
      }
      if (rows.length + problems.length > 0) await send();
    } catch (err) {
      if (jobId) await this.bus.request(ImportRequests.Discard, { publicationId, jobId }).catch(() => undefined);
      throw err;
    }
    if (!jobId) throw new AppError('validation_failed', 'The file has no rows.');
    return this.bus.request(ImportRequests.Check, { publicationId, jobId });
  }

  @Get()
  @Auth('session-or-secret')
  @ApiOperation({ summary: "The publication's imports, newest first, cursor paginated." })
  @ApiOkResponse({ type: ImportJobPageDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: a bad `limit` or a `cursor` not issued by this list' })
  list(@Caller() caller: Principal, @Query() query: PageQueryDto): Promise<Page<ImportJobSummary>> {
    return this.bus.request(ImportRequests.List, { publicationId: publicationOf(caller), ...query });
  }

  @Get(':id')
  @Auth('session-or-secret')
  @ApiOperation({ summary: 'One import: where its pass stands, its counts, and its bad rows with their lines and reasons.' })
  @ApiOkResponse({ type: ImportJobViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  get(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<ImportJobView> {
    return this.bus.request(ImportRequests.Get, { publicationId: publicationOf(caller), jobId: id });
  }

  @Post(':id/run')
  @HttpCode(200)
  @Auth('session-or-secret')
  @Idempotent()
  @ApiOperation({
    summary: 'Import a checked file (`importing`, then `imported`): the rows the check found no fault with, in batches. Running a file again changes nothing already there.',
  })
  @ApiOkResponse({ type: ImportJobViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 409, description: '`conflict`: the import is not `checked` (still checking, or run already)' })
  run(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<ImportJobView> {
    return this.bus.request(ImportRequests.Run, { publicationId: publicationOf(caller), jobId: id });
  }
}

function mediaTypeOf(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}
