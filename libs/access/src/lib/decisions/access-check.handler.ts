import { Controller } from '@nestjs/common';
import { AccessRequests, type AccessCheckResult, type DecisionRules, type RequestOf } from '@gatehouse/contracts';
import { Handles, ReadModels } from '@gatehouse/bus';
import { AccessDecisionService } from './access-decision.service';
import { EdgeCheckBatches } from './edge-check-batches.service';
import { PaywallCatalog } from './paywall-catalog.service';

@Controller()
export class AccessCheckHandler {
  constructor(
    private readonly decisions: AccessDecisionService,
    private readonly catalog: PaywallCatalog,
    private readonly readModels: ReadModels,
    private readonly batches: EdgeCheckBatches,
  ) {}

  /** A change of rules or entitlements answered before this check was sent is known here before it is decided. */
  @Handles(AccessRequests.Check)
  async check(request: RequestOf<typeof AccessRequests.Check>): Promise<AccessCheckResult> {
    await this.readModels.caughtUp();
    return this.decisions.decide(request);
  }

  /** The rules a gateway decides by: as this replica decides, once it heard every change answered before the request. */
  @Handles(AccessRequests.GetDecisionRules)
  async rules({ publicationId }: RequestOf<typeof AccessRequests.GetDecisionRules>): Promise<DecisionRules> {
    await this.readModels.caughtUp();
    return (await this.catalog.rulesOf(publicationId)).source;
  }

  @Handles(AccessRequests.ReaderInSegment)
  async readerInSegment({ publicationId, segmentId, reader }: RequestOf<typeof AccessRequests.ReaderInSegment>): Promise<{ inSegment: boolean }> {
    await this.readModels.caughtUp();
    return { inSegment: await this.decisions.inSegment(publicationId, segmentId, reader) };
  }

  @Handles(AccessRequests.RecordEdgeChecks)
  async recordEdgeChecks({ batchId, checks }: RequestOf<typeof AccessRequests.RecordEdgeChecks>): Promise<{ recorded: number }> {
    if (!(await this.batches.firstDelivery(batchId))) return { recorded: 0 };
    return { recorded: await this.decisions.recordEdgeChecks(checks) };
  }
}
