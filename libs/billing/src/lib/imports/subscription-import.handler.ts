import { Controller } from '@nestjs/common';
import { ImportRequests, type ReplyOf, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { SubscriptionImportService } from './subscription-import.service';

@Controller()
export class SubscriptionImportHandler {
  constructor(private readonly imports: SubscriptionImportService) {}

  @Handles(ImportRequests.ImportSubscriptions)
  import(request: RequestOf<typeof ImportRequests.ImportSubscriptions>): Promise<ReplyOf<typeof ImportRequests.ImportSubscriptions>> {
    return this.imports.import(request);
  }

  @Handles(ImportRequests.ExportSubscriptions)
  exportOf(request: RequestOf<typeof ImportRequests.ExportSubscriptions>): Promise<ReplyOf<typeof ImportRequests.ExportSubscriptions>> {
    return this.imports.exportOf(request);
  }
}
