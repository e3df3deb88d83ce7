import { Injectable, Logger } from '@nestjs/common';
import type { CheckoutConfirmation, CheckoutState } from '@gatehouse/contracts';
import { OutboxRelay } from '@gatehouse/bus';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import type Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { CheckoutSession } from '../checkout/checkout-session.entity';
import { atProcessor } from '../processor/processor-clients.service';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { wholeSecond } from '../shared/time';
import { purchaseView } from '../passes/purchase-views';
import { subscriptionView } from '../subscriptions/subscription-views';
import { CheckoutEventHandler, isPaid } from './checkout-events.service';

/** How long the answer waits for the entitlements change to reach the event stream, so the reader's next check sees it. */
const BROADCAST_WAIT_MS = 1_000;

/**
 * The reader is back from the processor's checkout, maybe before its webhook (which can be late,
 * or lost): the processor is asked about the session, and a paid one is completed here exactly as
 * `checkout.session.completed` completes it, so whichever comes second changes nothing.
 */
@Injectable()
export class CheckoutConfirmationService {
  private readonly logger = new Logger(CheckoutConfirmationService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly settings: ProcessorSettingsService,
    private readonly checkouts: CheckoutEventHandler,
    private readonly relay: OutboxRelay,
  ) {}

  async confirm(publicationId: string, customerId: string, sessionId: string): Promise<CheckoutConfirmation> {
    // Only a checkout this customer started here: any other session id is unknown, whoever's it is.
    const started = isUuid(customerId) ? await this.dataSource.getRepository(CheckoutSession).findOneBy({ publicationId, processorSessionId: sessionId }) : null;
    if (!started || started.customerId !== customerId) throw new AppError('not_found', 'No checkout with this id was started by this customer.');
    const client = await this.settings.requireClient(publicationId);
    const session = await atProcessor('read the checkout session', () => client.checkout.sessions.retrieve(sessionId));
    const status = stateOf(session);
    if (status !== 'complete') return { sessionId, status, subscription: null, purchase: null };

    const readAt = wholeSecond(this.clock.now());
    const { subscription, purchase } = await this.dataSource.transaction((manager) =>
      this.checkouts.complete(manager, publicationId, session, customerId, { happenedAt: readAt, readAt }),
    );
    // The entitlements change reaches access before the answer does: the reader's next check is a subscriber's.
    if (!(await this.relay.flushWithin(BROADCAST_WAIT_MS))) this.logger.warn(`The checkout ${sessionId} is recorded, its entitlements not broadcast yet.`);
    return { sessionId, status, subscription: subscription && subscriptionView(subscription), purchase: purchase ? purchaseView(purchase) : null };
  }
}

function stateOf(session: Stripe.Checkout.Session): CheckoutState {
  if (session.status === 'complete') return isPaid(session) ? 'complete' : 'processing';
  return session.status === 'expired' ? 'expired' : 'open';
}
