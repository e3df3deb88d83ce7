import { Controller } from '@nestjs/common';
import { ImportRequests, type ImportJobSummary, type ImportJobView, type Page, type ReplyOf, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { ImportsService } from './imports.service';
import { SubscriberExportService } from './subscriber-export.service';

@Controller()
export class ImportsHandler {
  constructor(
    private readonly imports: ImportsService,
    private readonly exports: SubscriberExportService,
  ) {}

  @Handles(ImportRequests.Create)
  create(request: RequestOf<typeof ImportRequests.Create>): Promise<ImportJobView> {
    return this.imports.create(request.publicationId, request.notifyReaders);
  }

  @Handles(ImportRequests.AddRows)
  addRows(request: RequestOf<typeof ImportRequests.AddRows>): Promise<{ added: number }> {
    return this.imports.addRows(request.publicationId, request.jobId, request.rows, request.problems);
  }

  @Handles(ImportRequests.Discard)
  discard(request: RequestOf<typeof ImportRequests.Discard>): Promise<{ deleted: true }> {
    return this.imports.discard(request.publicationId, request.jobId);
  }

  @Handles(ImportRequests.Check)
  check(request: RequestOf<typeof ImportRequests.Check>): Promise<ImportJobView> {
    return this.imports.check(request.publicationId, request.jobId);
  }

  @Handles(ImportRequests.Run)
  run(request: RequestOf<typeof ImportRequests.Run>): Promise<ImportJobView> {
    return this.imports.run(request.publicationId, request.jobId);
  }

  @Handles(ImportRequests.Get)
  get(request: RequestOf<typeof ImportRequests.Get>): Promise<ImportJobView> {
    return this.imports.get(request.publicationId, request.jobId);
  }

  @Handles(ImportRequests.List)
  list(request: RequestOf<typeof ImportRequests.List>): Promise<Page<ImportJobSummary>> {
    const { publicationId, ...page } = request;
    return this.imports.list(publicationId, page);
  }

  @Handles(ImportRequests.ExportPage)
  exportPage(request: RequestOf<typeof ImportRequests.ExportPage>): Promise<ReplyOf<typeof ImportRequests.ExportPage>> {
    return this.exports.page(request.publicationId, request.cursor);
  }
}
