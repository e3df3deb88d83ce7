import { Controller } from '@nestjs/common';
import {
  BillingRequests,
  CancellationRequests,
  type CancellationOptions,
  type CancellationReasonsView,
  type RequestOf,
  type SaveAcceptance,
  type SubscriptionView,
  type WinBackSettingsView,
} from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { SubscriptionCancellation } from '../subscriptions/subscription-cancellation.service';
import { CancellationSaves } from './cancellation-saves.service';
import { WinBackService } from './win-back.service';

const { GetReasons, SaveReasons, Options, AcceptSave, GetWinBack, SaveWinBack } = CancellationRequests;

/** Cancelling, the save offers a cancellation may bring, and win-back (issue #27 items 2 and 5). */
@Controller()
export class CancellationHandler {
  constructor(
    private readonly cancellation: SubscriptionCancellation,
    private readonly saves: CancellationSaves,
    private readonly winBack: WinBackService,
  ) {}

  @Handles(BillingRequests.CancelSubscription)
  cancel(request: RequestOf<typeof BillingRequests.CancelSubscription>): Promise<SubscriptionView> {
    return this.saves.cancelWithReason(request, () => this.cancellation.cancel(request));
  }

  @Handles(GetReasons)
  reasons({ publicationId }: RequestOf<typeof GetReasons>): Promise<CancellationReasonsView> {
    return this.saves.reasons(publicationId);
  }

  @Handles(SaveReasons)
  saveReasons({ publicationId, reasons }: RequestOf<typeof SaveReasons>): Promise<CancellationReasonsView> {
    return this.saves.saveReasons(publicationId, reasons);
  }

  @Handles(Options)
  options({ publicationId, subscriptionId, customerId }: RequestOf<typeof Options>): Promise<CancellationOptions> {
    return this.saves.options(publicationId, subscriptionId, customerId);
  }

  @Handles(AcceptSave)
  accept({ publicationId, subscriptionId, reason, customerId }: RequestOf<typeof AcceptSave>): Promise<SaveAcceptance> {
    return this.saves.accept(publicationId, subscriptionId, reason, customerId);
  }

  @Handles(GetWinBack)
  getWinBack({ publicationId }: RequestOf<typeof GetWinBack>): Promise<WinBackSettingsView> {
    return this.winBack.get(publicationId);
  }

  @Handles(SaveWinBack)
  saveWinBack({ publicationId, ...change }: RequestOf<typeof SaveWinBack>): Promise<WinBackSettingsView> {
    return this.winBack.save(publicationId, change);
  }
}
