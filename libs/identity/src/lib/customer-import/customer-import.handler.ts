import { Controller } from '@nestjs/common';
import { ImportRequests, type ReplyOf, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { CustomerImportService } from './customer-import.service';

@Controller()
export class CustomerImportHandler {
  constructor(private readonly imports: CustomerImportService) {}

  @Handles(ImportRequests.ImportCustomers)
  import(request: RequestOf<typeof ImportRequests.ImportCustomers>): Promise<ReplyOf<typeof ImportRequests.ImportCustomers>> {
    return this.imports.import(request);
  }

  @Handles(ImportRequests.ExportCustomers)
  exportPage(request: RequestOf<typeof ImportRequests.ExportCustomers>): Promise<ReplyOf<typeof ImportRequests.ExportCustomers>> {
    return this.imports.exportPage(request);
  }
}
