import { Controller } from '@nestjs/common';
import { AccessRequests, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { TrackEventsService } from './track-events.service';

@Controller()
export class TrackEventsHandler {
  constructor(private readonly events: TrackEventsService) {}

  @Handles(AccessRequests.TrackEvents)
  track(request: RequestOf<typeof AccessRequests.TrackEvents>): Promise<{ accepted: number }> {
    return this.events.track(request);
  }
}
