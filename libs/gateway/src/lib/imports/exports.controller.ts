import { Controller, Get, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { csvLine, ImportRequests, TRANSFER_COLUMNS, type TransferRow } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Readable } from 'node:stream';
import { Auth } from '../edge/credentials';
import { Caller, publicationOf, type Principal } from '../edge/principal';

@ApiTags('admin imports')
@Controller('admin/exports')
export class ExportsController {
  constructor(private readonly bus: BusClient) {}

  @Get('customers')
  @Auth('session-or-secret')
  @ApiOperation({
    summary: "The publication's customers and their live subscriptions as CSV, in the import's columns: an export imports into another publication as it is.",
    description: `Columns ${TRANSFER_COLUMNS.join(', ')}; one row per subscription, one for a customer without any; by email. Streamed a page at a time.`,
  })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'The CSV file.', content: { 'text/csv': { schema: { type: 'string' } } } })
  async exportCustomers(@Caller() caller: Principal): Promise<StreamableFile> {
    const publicationId = publicationOf(caller);
    // The first page is asked for before answering, so a service that is down is a 503, not a cut-off file.
    const first = await this.bus.request(ImportRequests.ExportPage, { publicationId });
    const bus = this.bus;
    async function* lines(): AsyncGenerator<string> {
      yield csvLine([...TRANSFER_COLUMNS]) + '\r\n';
      for (let page = first; ; ) {
        if (page.rows.length > 0) yield page.rows.map((row) => csvLine(cellsOf(row)) + '\r\n').join('');
        if (page.nextCursor === null) return;
        page = await bus.request(ImportRequests.ExportPage, { publicationId, cursor: page.nextCursor });
      }
    }
    return new StreamableFile(Readable.from(lines()), { type: 'text/csv; charset=utf-8', disposition: 'attachment; filename="customers.csv"' });
  }
}

function cellsOf(row: TransferRow): Array<string | number | null> {
  return [
    row.email,
    row.name,
    row.plan?.product ?? null,
    row.plan?.interval ?? null,
    row.plan?.currency ?? null,
    row.plan?.amount ?? null,
    row.currentPeriodEnd,
    row.processorCustomerId,
    row.processorSubscriptionId,
  ];
}
