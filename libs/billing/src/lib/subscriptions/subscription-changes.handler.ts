import { Controller } from '@nestjs/common';
import { BillingRequests, type PlanChangePreview, type PlanChangeResult, type RequestOf, type SubscriptionSettingsView, type SubscriptionView } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { PlanChangeService } from './plan-change.service';
import { SubscriptionPauseService } from './subscription-pause.service';
import { SubscriptionSettingsService } from './subscription-settings.service';

const { PreviewPlanChange, ChangePlan, PauseSubscription, ResumeSubscription, GetSubscriptionSettings, SaveSubscriptionSettings } = BillingRequests;

/** Plan changes, pauses and the settings they follow (issue #27, items 1 and 3). */
@Controller()
export class SubscriptionChangesHandler {
  constructor(
    private readonly planChanges: PlanChangeService,
    private readonly pauses: SubscriptionPauseService,
    private readonly settings: SubscriptionSettingsService,
  ) {}

  @Handles(PreviewPlanChange)
  preview(request: RequestOf<typeof PreviewPlanChange>): Promise<PlanChangePreview> {
    return this.planChanges.preview(request);
  }

  @Handles(ChangePlan)
  change(request: RequestOf<typeof ChangePlan>): Promise<PlanChangeResult> {
    return this.planChanges.change(request);
  }

  @Handles(PauseSubscription)
  pause(request: RequestOf<typeof PauseSubscription>): Promise<SubscriptionView> {
    return this.pauses.pause(request);
  }

  @Handles(ResumeSubscription)
  resume(request: RequestOf<typeof ResumeSubscription>): Promise<SubscriptionView> {
    return this.pauses.resume(request);
  }

  @Handles(GetSubscriptionSettings)
  getSettings({ publicationId }: RequestOf<typeof GetSubscriptionSettings>): Promise<SubscriptionSettingsView> {
    return this.settings.get(publicationId);
  }

  @Handles(SaveSubscriptionSettings)
  saveSettings({ publicationId, ...change }: RequestOf<typeof SaveSubscriptionSettings>): Promise<SubscriptionSettingsView> {
    return this.settings.save(publicationId, change);
  }
}
