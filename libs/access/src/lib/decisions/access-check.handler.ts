import { Controller } from '@nestjs/common';
import { AccessRequests, type AccessCheckResult, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { AccessDecisionService } from './access-decision.service';

@Controller()
export class AccessCheckHandler {
  constructor(private readonly decisions: AccessDecisionService) {}

  @Handles(AccessRequests.Check)
  check(request: RequestOf<typeof AccessRequests.Check>): Promise<AccessCheckResult> {
    return this.decisions.decide(request);
  }
}
