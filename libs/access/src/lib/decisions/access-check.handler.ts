import { Controller, Inject } from '@nestjs/common';
import { AccessRequests, type AccessCheckResult, type RequestOf } from '@gatehouse/contracts';
import { EVENT_TRANSPORT, Handles, type EventTransport } from '@gatehouse/bus';
import { AccessDecisionService } from './access-decision.service';

@Controller()
export class AccessCheckHandler {
  constructor(
    private readonly decisions: AccessDecisionService,
    @Inject(EVENT_TRANSPORT) private readonly events: EventTransport,
  ) {}

  /** A rules or entitlements change answered before this check was sent is known here before it is decided. */
  @Handles(AccessRequests.Check)
  async check(request: RequestOf<typeof AccessRequests.Check>): Promise<AccessCheckResult> {
    await this.events.caughtUp();
    return this.decisions.decide(request);
  }
}
