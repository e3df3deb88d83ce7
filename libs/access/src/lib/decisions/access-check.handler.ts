import { Controller } from '@nestjs/common';
import { AccessRequests, type AccessCheckResult, type RequestOf } from '@gatehouse/contracts';
import { Handles, ReadModels } from '@gatehouse/bus';
import { AccessDecisionService } from './access-decision.service';

@Controller()
export class AccessCheckHandler {
  constructor(
    private readonly decisions: AccessDecisionService,
    private readonly readModels: ReadModels,
  ) {}

  /** A change of rules or entitlements answered before this check was sent is known here before it is decided. */
  @Handles(AccessRequests.Check)
  async check(request: RequestOf<typeof AccessRequests.Check>): Promise<AccessCheckResult> {
    await this.readModels.caughtUp();
    return this.decisions.decide(request);
  }
}
