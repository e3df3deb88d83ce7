import { Injectable } from '@nestjs/common';
import {
  Events,
  type DataWallField,
  type ExperimentAssignment,
  type ExperimentVariant,
  type FieldError,
  type TrackEvent,
  type TrackEventsRequest,
  type VisitorEventData,
} from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import { isEmail } from 'class-validator';
import { DataSource, type EntityManager } from 'typeorm';
import { filledFields, PassesService } from '../passes/passes.service';
import { readerOf } from '../readers/reader';
import { GroupCommit } from '../shared/group-commit';
import { parsePageUrl, requirePublicationHost } from '@gatehouse/access-decisions';
import { ShareLinksService } from '../sharing/share-links.service';
import { RollupsService, type Counter, type Tally } from '../stats/rollups.service';

/** How far an event's own `occurredAt` may lie from the time it is received. */
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;
const MAX_AHEAD_MS = 5 * 60 * 1000;

const PAYWALL_COUNTERS: Partial<Record<TrackEvent['type'], Counter>> = {
  paywall_shown: 'shown',
  paywall_dismissed: 'dismissed',
  paywall_converted: 'converted',
};
const PAYWALL_EVENTS = {
  paywall_shown: Events.PaywallShown,
  paywall_dismissed: Events.PaywallDismissed,
  paywall_converted: Events.PaywallConverted,
} as const;

/** An event that passed every check, with what was resolved on the way. */
interface AcceptedEvent {
  event: TrackEvent;
  occurredAt: Date;
  experiment: ExperimentAssignment | null;
}

interface KnownReferences {
  /** The publication's paywalls the events name, with the fields of the data walls among them. */
  paywalls: Map<string, { dataFields: DataWallField[] | null }>;
  experiments: Map<string, { paywallId: string; variants: ExperimentVariant[] }>;
}

/**
 * Track events from the SDK (decisions E8): checked as a whole first (one bad event refuses the
 * request, nothing recorded), then recorded in one transaction with the events they emit, the
 * visitor passes they give and the rollups they count.
 */
@Injectable()
export class TrackEventsService {
  private readonly commits: GroupCommit;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly shareLinks: ShareLinksService,
    private readonly passes: PassesService,
    private readonly rollups: RollupsService,
  ) {
    this.commits = new GroupCommit(dataSource);
  }

  async track(request: TrackEventsRequest): Promise<{ accepted: number }> {
    const now = this.clock.now();
    const events = request.events.map(withCanonicalIds);
    const known = await this.knownReferences(request.publicationId, events);
    const accepted = events.map((event, i) => this.accept(event, (name) => (request.batch ? `events[${i}].${name}` : name), request, known, now));
    const recorded = accepted.filter((item) => item.event.type !== 'page_view');
    // Durable before the answer, in a transaction shared with the requests that came meanwhile (page views record nothing).
    if (recorded.length > 0) {
      await this.commits.run(async (manager) => {
        for (const item of recorded) await this.record(manager, request, item, now);
        await this.rollups.add(manager, request.publicationId, recorded.flatMap(tallyOf));
      });
    }
    return { accepted: accepted.length };
  }

  private accept(event: TrackEvent, field: (name: string) => string, request: TrackEventsRequest, known: KnownReferences, now: Date): AcceptedEvent {
    const page = parsePageUrl(event.url, field('url'));
    requirePublicationHost(page, request.domains);
    const occurredAt = event.occurredAt == null ? now : new Date(event.occurredAt);
    const age = now.getTime() - occurredAt.getTime();
    if (Number.isNaN(age) || age > MAX_AGE_MS || age < -MAX_AHEAD_MS) {
      throw AppError.invalid(field('occurredAt'), 'must be an ISO 8601 time within the last 7 days');
    }
    const isPaywallEvent = event.type in PAYWALL_COUNTERS;
    if (isPaywallEvent && event.paywallId == null) throw AppError.invalid(field('paywallId'), `is required for ${event.type}`);
    if (event.paywallId != null && !known.paywalls.has(event.paywallId)) {
      throw AppError.invalid(field('paywallId'), 'is not a paywall of this publication');
    }
    const wallErrors = this.wallErrors(event, known);
    if (wallErrors.length > 0) throw new AppError('validation_failed', 'The request is invalid.', wallErrors.map((e) => ({ ...e, field: field(e.field) })));
    const experiment = isPaywallEvent ? this.experimentOf(event, field, known) : null;
    return { event, occurredAt, experiment };
  }

  /**
   * What a wall needs before it opens: a newsletter subscription an email address, a data
   * submission for a data wall every required field, each of its type. A wall that opened on
   * anything less would let the reader through for nothing.
   */
  private wallErrors(event: TrackEvent, known: KnownReferences): FieldError[] {
    const data = event.data ?? {};
    if (event.type === 'newsletter_subscribe') {
      const email = data['email'];
      return typeof email === 'string' && isEmailAddress(email) ? [] : [{ field: 'data.email', message: 'must be an email address' }];
    }
    const fields = event.type === 'data_submit' && event.paywallId != null ? known.paywalls.get(event.paywallId)?.dataFields : null;
    const filled = new Set(filledFields(data));
    return (fields ?? []).flatMap((wanted): FieldError[] => {
      const value = data[wanted.name];
      if (!filled.has(wanted.name)) return wanted.required ? [{ field: `data.${wanted.name}`, message: 'is required' }] : [];
      if (wanted.type === 'email' && !(typeof value === 'string' && isEmailAddress(value))) return [{ field: `data.${wanted.name}`, message: 'must be an email address' }];
      if (wanted.type === 'number' && !Number.isFinite(typeof value === 'string' ? Number(value.trim()) : value)) return [{ field: `data.${wanted.name}`, message: 'must be a number' }];
      return [];
    });
  }

  /** A paywall event may name the experiment variant it showed: both ids, of an experiment on that paywall. */
  private experimentOf(event: TrackEvent, field: (name: string) => string, known: KnownReferences): ExperimentAssignment | null {
    const { experimentId, variantId } = event;
    if (experimentId == null && variantId == null) return null;
    if (experimentId == null) throw AppError.invalid(field('experimentId'), 'is required with variantId');
    if (variantId == null) throw AppError.invalid(field('variantId'), 'is required with experimentId');
    const experiment = known.experiments.get(experimentId);
    if (!experiment || experiment.paywallId !== event.paywallId) throw AppError.invalid(field('experimentId'), 'is not an experiment on this paywall');
    if (!experiment.variants.some((variant) => variant.id === variantId)) throw AppError.invalid(field('variantId'), 'is not a variant of this experiment');
    return { experimentId, variantId };
  }

  private async record(manager: EntityManager, request: TrackEventsRequest, { event, occurredAt, experiment }: AcceptedEvent, now: Date): Promise<void> {
    const { publicationId, customerId } = request;
    const visitor: VisitorEventData = {
      visitorId: event.userId ?? null,
      customerId,
      url: event.url,
      paywallId: event.paywallId ?? null,
      occurredAt: occurredAt.toISOString(),
    };
    const reader = readerOf(publicationId, customerId, event.userId ?? null);
    const data = event.data ?? {};
    switch (event.type) {
      case 'newsletter_subscribe': {
        await this.passes.record(manager, reader, 'newsletter', [], now);
        const email = typeof data['email'] === 'string' ? data['email'] : null;
        await this.outbox.add(manager, Events.NewsletterSubscribe, { ...visitor, email, data }, publicationId);
        return;
      }
      case 'data_submit': {
        const fields = filledFields(data);
        await this.passes.record(manager, reader, 'data', fields, now);
        await this.outbox.add(manager, Events.DataSubmit, { ...visitor, fields }, publicationId);
        return;
      }
      case 'paywall_shown':
      case 'paywall_dismissed':
      case 'paywall_converted':
        await this.outbox.add(manager, PAYWALL_EVENTS[event.type], { ...visitor, experimentId: experiment?.experimentId ?? null, variantId: experiment?.variantId ?? null }, publicationId);
        if (event.type === 'paywall_converted') await this.shareLinks.recordConversion(manager, publicationId, event.url, occurredAt);
        if (event.type === 'paywall_shown' && experiment) {
          await this.outbox.add(
            manager,
            Events.ExperimentAssigned,
            { ...experiment, paywallId: event.paywallId as string, visitorId: visitor.visitorId, customerId },
            publicationId,
          );
        }
        return;
      case 'page_view':
        return;
    }
  }

  /** The publication's paywalls and experiments the events name, looked up once for the whole request. */
  private async knownReferences(publicationId: string, events: TrackEvent[]): Promise<KnownReferences> {
    const paywallIds = [...new Set(events.map((e) => e.paywallId).filter(isUuid))];
    const experimentIds = [...new Set(events.map((e) => e.experimentId).filter(isUuid))];
    const paywalls: Array<{ id: string; type: string; config: { fields?: DataWallField[] } }> = paywallIds.length
      ? await this.dataSource.query('SELECT id, type, config FROM paywalls WHERE publication_id = $1 AND id = ANY($2::uuid[])', [publicationId, paywallIds])
      : [];
    const experiments: Array<{ id: string; paywall_id: string; variants: ExperimentVariant[] }> = experimentIds.length
      ? await this.dataSource.query('SELECT id, paywall_id, variants FROM experiments WHERE publication_id = $1 AND id = ANY($2::uuid[])', [
          publicationId,
          experimentIds,
        ])
      : [];
    return {
      paywalls: new Map(paywalls.map((p) => [p.id, { dataFields: p.type === 'data' ? (p.config.fields ?? []) : null }])),
      experiments: new Map(experiments.map((e) => [e.id, { paywallId: e.paywall_id, variants: e.variants }])),
    };
  }
}

/** As identity takes it at registration (decisions D1): a valid address of at most 254 characters, around spaces. */
function isEmailAddress(value: string): boolean {
  const email = value.trim();
  return email.length <= 254 && isEmail(email);
}

/** Ids as the database spells them (lower case), so they compare, and go out in events, as stored. */
function withCanonicalIds(event: TrackEvent): TrackEvent {
  const { paywallId, experimentId, variantId } = event;
  return { ...event, paywallId: paywallId?.toLowerCase(), experimentId: experimentId?.toLowerCase(), variantId: variantId?.toLowerCase() };
}

function tallyOf({ event, occurredAt, experiment }: AcceptedEvent): Tally[] {
  const counter = PAYWALL_COUNTERS[event.type];
  return counter ? [{ at: occurredAt, paywallId: event.paywallId ?? null, experiment, counter }] : [];
}
