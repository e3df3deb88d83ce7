import { Controller } from '@nestjs/common';
import { AccessRequests, type Page, type RequestOf, type SegmentView } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { SegmentsService } from './segments.service';

const { ListSegments, GetSegment, CreateSegment, UpdateSegment, DeleteSegment } = AccessRequests;

@Controller()
export class SegmentsHandler {
  constructor(private readonly segments: SegmentsService) {}

  @Handles(ListSegments)
  list({ publicationId, limit, cursor }: RequestOf<typeof ListSegments>): Promise<Page<SegmentView>> {
    return this.segments.list(publicationId, { limit, cursor });
  }

  @Handles(GetSegment)
  get({ publicationId, segmentId }: RequestOf<typeof GetSegment>): Promise<SegmentView> {
    return this.segments.get(publicationId, segmentId);
  }

  @Handles(CreateSegment)
  create({ publicationId, segment }: RequestOf<typeof CreateSegment>): Promise<SegmentView> {
    return this.segments.create(publicationId, segment);
  }

  @Handles(UpdateSegment)
  update({ publicationId, segmentId, changes }: RequestOf<typeof UpdateSegment>): Promise<SegmentView> {
    return this.segments.update(publicationId, segmentId, changes);
  }

  @Handles(DeleteSegment)
  delete({ publicationId, segmentId }: RequestOf<typeof DeleteSegment>): Promise<{ deleted: true }> {
    return this.segments.delete(publicationId, segmentId);
  }
}
