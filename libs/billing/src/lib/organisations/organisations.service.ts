import { Injectable } from '@nestjs/common';
import {
  Events,
  IdentityRequests,
  InternalEvents,
  ORGANISATION_DOMAINS_MAX,
  ORGANISATION_IP_RANGES_MAX,
  ORGANISATION_MANAGERS_MAX,
  type NewOrganisation,
  type OrganisationChanges,
  type OrganisationEventData,
  type OrganisationNetwork,
  type OrganisationView,
  type Page,
  type PageRequest,
  type SeatsActor,
} from '@gatehouse/contracts';
import { BusClient, Outbox } from '@gatehouse/bus';
import { newestFirst, pageOf } from '@gatehouse/db';
import { AppError, Clock, isUuid, parseCidr, parseTimestamp, rangesOverlap, reservedRangeOverlapping, type IpRange } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { Product } from '../catalog/product.entity';
import { atProcessor } from '../processor/processor-clients.service';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { EntitlementsAnnouncer } from '../subscriptions/entitlements-announcer.service';
import type { ProcessorSnapshot } from '../subscriptions/processor-snapshot';
import { OrganisationMember } from './organisation-member.entity';
import { Organisation } from './organisation.entity';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * Organisations as staff keep them (docs/organisations.md): name, product, seats, term, domains,
 * IP ranges and managers. No two organisations of a publication hold overlapping ranges (checked
 * under the publication's lock, so two writes cannot both pass), and reserved ranges only when
 * staff allow them. Every change tells the replicas that keep the networks, and the members whose
 * entitlements it changes, in its transaction.
 */
@Injectable()
export class OrganisationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly bus: BusClient,
    private readonly outbox: Outbox,
    private readonly announcer: EntitlementsAnnouncer,
    private readonly settings: ProcessorSettingsService,
  ) {}

  async list(publicationId: string, page: PageRequest): Promise<Page<OrganisationView>> {
    const query = this.dataSource.getRepository(Organisation).createQueryBuilder('organisation').where('organisation.publication_id = :publicationId', { publicationId });
    const found = await pageOf(query, newestFirst(query.alias), page, (organisation) => organisation);
    const used = await seatsUsedOf(this.dataSource.manager, found.items.map((organisation) => organisation.id));
    return { items: found.items.map((organisation) => organisationView(organisation, used.get(organisation.id) ?? 0)), nextCursor: found.nextCursor };
  }

  async get(publicationId: string, organisationId: string): Promise<OrganisationView> {
    const organisation = await this.find(this.dataSource.manager, publicationId, organisationId);
    return organisationView(organisation, await seatsUsed(this.dataSource.manager, organisation.id));
  }

  async create(publicationId: string, input: NewOrganisation): Promise<OrganisationView> {
    const now = this.clock.now();
    const organisation = Object.assign(new Organisation(), {
      id: randomUUID(),
      publicationId,
      processorSubscriptionId: null,
      createdAt: now,
      updatedAt: now,
      ...(await this.validated(publicationId, input, { startsAt: now, endsAt: null, allowReservedRanges: false, seats: null, domains: [], ipRanges: [], managerIds: [] })),
    });
    return this.inPublicationLock(publicationId, async (manager) => {
      await this.assertNoConflicts(manager, organisation);
      await manager.insert(Organisation, organisation);
      await this.outbox.add(manager, Events.OrganisationCreated, organisationEventData(organisation, 0), publicationId);
      if (organisation.ipRanges.length > 0) await this.outbox.add(manager, InternalEvents.OrganisationNetworksChanged, {}, publicationId);
      return organisationView(organisation, 0);
    });
  }

  async update(publicationId: string, organisationId: string, changes: OrganisationChanges): Promise<OrganisationView> {
    const current = await this.find(this.dataSource.manager, publicationId, organisationId);
    const columns = { ...(await this.validated(publicationId, { name: current.name, productId: current.productId, ...changes }, current)), updatedAt: this.clock.now() };
    const changed = Object.assign(new Organisation(), current, columns);
    if (current.processorSubscriptionId && changed.seats !== current.seats) {
      // Refused here before the processor is told; checked again under the lock below.
      assertSeatsCover(changed.seats, await seatsUsed(this.dataSource.manager, organisationId));
      await this.sellSeats(current, changed.seats);
    }
    return this.inPublicationLock(publicationId, async (manager) => {
      const used = await seatsUsed(manager, organisationId, true);
      assertSeatsCover(changed.seats, used);
      await this.assertNoConflicts(manager, changed);
      await manager.update(Organisation, { id: organisationId }, columns);
      await this.outbox.add(manager, Events.OrganisationUpdated, organisationEventData(changed, used), publicationId);
      await this.announceChange(manager, current, changed);
      return organisationView(changed, used);
    });
  }

  async delete(publicationId: string, organisationId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const organisation = await this.find(manager, publicationId, organisationId, true);
      const used = await seatsUsed(manager, organisationId);
      await this.announceChange(manager, organisation, null);
      await manager.delete(Organisation, { id: organisationId });
      await this.outbox.add(manager, Events.OrganisationDeleted, organisationEventData(organisation, used), publicationId);
    });
  }

  /**
   * A paid group checkout (its metadata carries `seats`): the organisation of the price's product
   * with the buyer as manager, once per processor subscription however often the completion is seen.
   */
  async fromCheckout(
    manager: EntityManager,
    publicationId: string,
    purchase: { name: string; productId: string; seats: number; buyerId: string; processorSubscriptionId: string },
  ): Promise<void> {
    const now = this.clock.now();
    const organisation = Object.assign(new Organisation(), {
      id: randomUUID(),
      publicationId,
      name: purchase.name,
      productId: purchase.productId,
      seats: purchase.seats,
      startsAt: now,
      endsAt: null,
      domains: [],
      ipRanges: [],
      allowReservedRanges: false,
      managerIds: [purchase.buyerId],
      processorSubscriptionId: purchase.processorSubscriptionId,
      createdAt: now,
      updatedAt: now,
    });
    const inserted = await manager.createQueryBuilder().insert().into(Organisation).values(organisation).orIgnore().returning('id').execute();
    if ((inserted.raw as unknown[]).length > 0) await this.outbox.add(manager, Events.OrganisationCreated, organisationEventData(organisation, 0), publicationId);
  }

  /**
   * The processor's word on a bought organisation's subscription: its quantity is the seats (a
   * change in the processor's portal included; never fewer than the members), and its cancellation
   * ends the organisation's term. Nothing for a subscription no organisation was bought with.
   */
  async followSubscription(manager: EntityManager, publicationId: string, snapshot: ProcessorSnapshot, at: Date): Promise<void> {
    const current = await manager.findOne(Organisation, { where: { publicationId, processorSubscriptionId: snapshot.processorSubscriptionId }, lock: { mode: 'pessimistic_write' } });
    if (!current) return;
    const used = await seatsUsed(manager, current.id);
    const ended = snapshot.status === 'cancelled';
    const endsAt = ended ? (current.endsAt && current.endsAt <= at ? current.endsAt : new Date(Math.max(at.getTime(), current.startsAt.getTime() + 1))) : current.endsAt;
    const seats = Math.max(snapshot.quantity, used);
    if (seats === current.seats && endsAt?.getTime() === current.endsAt?.getTime()) return;
    const changed = Object.assign(new Organisation(), current, { seats, endsAt, updatedAt: this.clock.now() });
    await manager.update(Organisation, { id: current.id }, { seats, endsAt, updatedAt: changed.updatedAt });
    await this.outbox.add(manager, Events.OrganisationUpdated, organisationEventData(changed, used), publicationId);
    await this.announceChange(manager, current, changed);
  }

  /** A bought organisation's seats are its processor subscription's quantity: the processor is told first (502 changes nothing here). */
  private async sellSeats(organisation: Organisation, seats: number | null): Promise<void> {
    if (seats === null) throw AppError.invalid('seats', 'of an organisation bought at checkout are its subscription’s quantity: give a number');
    const client = await this.settings.requireClient(organisation.publicationId);
    const subscriptionId = organisation.processorSubscriptionId as string;
    const subscription = await atProcessor('read the organisation’s subscription', () => client.subscriptions.retrieve(subscriptionId));
    const [item] = subscription.items.data;
    await atProcessor('change the seats', () => client.subscriptions.update(subscriptionId, { items: [{ id: item.id, quantity: seats }], proration_behavior: 'create_prorations' }));
  }

  /**
   * The networks of the publication's organisations whose term has not ended, those yet to start
   * included, with their terms: the decision compares a term with the check's time, so a start or
   * an end takes effect at the very next check, however old the copy it decides by.
   */
  async networks(publicationId: string): Promise<{ networks: OrganisationNetwork[] }> {
    const rows: Array<{ id: string; name: string; ip_ranges: string[]; entitlements: string[]; starts_at: Date; ends_at: Date | null }> = await this.dataSource.query(
      `SELECT o.id, o.name, o.ip_ranges, p.entitlements::text[] AS entitlements, o.starts_at, o.ends_at
       FROM organisations o JOIN products p ON p.id = o.product_id
       WHERE o.publication_id = $1 AND cardinality(o.ip_ranges) > 0 AND (o.ends_at IS NULL OR o.ends_at > $2)`,
      [publicationId, this.clock.now()],
    );
    return {
      networks: rows.map((row) => ({
        organisationId: row.id,
        name: row.name,
        paywallIds: row.entitlements,
        ranges: row.ip_ranges,
        startsAt: row.starts_at.toISOString(),
        endsAt: row.ends_at?.toISOString() ?? null,
      })),
    };
  }

  /**
   * The organisation, refused as not_found when it is another publication's, or when a customer
   * acts on one they do not manage (no one learns it exists). `lock`: held until the transaction ends.
   */
  async find(manager: EntityManager, publicationId: string, organisationId: string, lock = false, actor: SeatsActor = { staff: true }): Promise<Organisation> {
    const organisation = isUuid(organisationId)
      ? await manager.findOne(Organisation, { where: { id: organisationId, publicationId }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) })
      : null;
    if (!organisation || ('managerId' in actor && !organisation.managerIds.includes(actor.managerId))) throw new AppError('not_found', 'No such organisation.');
    return organisation;
  }

  private inPublicationLock<T>(publicationId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('billing.organisations:' || $1, 0))`, [publicationId]);
      return work(manager);
    });
  }

  /** Members' entitlements and the publication's networks follow what the change touched. */
  private async announceChange(manager: EntityManager, before: Organisation, after: Organisation | null): Promise<void> {
    const { publicationId } = before;
    const grants = (o: Organisation | null) => (o ? [o.name, o.productId, o.startsAt.getTime(), o.endsAt?.getTime()].join('|') : '');
    if (before.ipRanges.length > 0 || (after?.ipRanges.length ?? 0) > 0) {
      if (!after || grants(before) !== grants(after) || before.ipRanges.join() !== after.ipRanges.join()) {
        await this.outbox.add(manager, InternalEvents.OrganisationNetworksChanged, {}, publicationId);
      }
    }
    if (grants(before) === grants(after)) return;
    const members = await manager.find(OrganisationMember, { where: { organisationId: before.id }, select: { customerId: true } });
    for (const { customerId } of members) await this.announcer.customer(manager, publicationId, customerId);
  }

  /** Ranges that overlap another organisation's, and domains another organisation lists, named in the refusal. */
  private async assertNoConflicts(manager: EntityManager, organisation: Organisation): Promise<void> {
    if (organisation.ipRanges.length > 0) {
      const overlapping: Array<{ name: string; theirs: string; ours: string }> = await manager.query(
        `SELECT o.name, r.theirs, q.ours FROM organisations o, unnest(o.ip_ranges) AS r(theirs), unnest($3::text[]) AS q(ours)
         WHERE o.publication_id = $1 AND o.id <> $2 AND r.theirs::cidr && q.ours::cidr LIMIT 1`,
        [organisation.publicationId, organisation.id, organisation.ipRanges],
      );
      if (overlapping.length > 0) {
        const [{ name, theirs, ours }] = overlapping;
        throw AppError.invalid('ipRanges', `${ours} overlaps ${theirs} of the organisation ${name}`);
      }
    }
    if (organisation.domains.length > 0) {
      const taken: Array<{ name: string; domain: string }> = await manager.query(
        `SELECT o.name, d.domain FROM organisations o, unnest(o.domains) AS d(domain) WHERE o.publication_id = $1 AND o.id <> $2 AND d.domain = ANY($3::text[]) LIMIT 1`,
        [organisation.publicationId, organisation.id, organisation.domains],
      );
      if (taken.length > 0) throw AppError.invalid('domains', `${taken[0].domain} is a domain of the organisation ${taken[0].name}`);
    }
  }

  /** The rules the types cannot say, each refusal naming its field; `base` fills what the input leaves out. */
  private async validated(
    publicationId: string,
    input: NewOrganisation,
    base: Pick<Organisation, 'startsAt' | 'endsAt' | 'allowReservedRanges' | 'seats' | 'domains' | 'ipRanges' | 'managerIds'>,
  ): Promise<Pick<Organisation, 'name' | 'productId' | 'seats' | 'startsAt' | 'endsAt' | 'domains' | 'ipRanges' | 'allowReservedRanges' | 'managerIds'>> {
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (name.length < 1 || name.length > 100) throw AppError.invalid('name', 'must be 1 to 100 characters');
    const product = isUuid(input.productId) ? await this.dataSource.getRepository(Product).existsBy({ id: input.productId, publicationId }) : false;
    if (!product) throw AppError.invalid('productId', 'must be a product of this publication');
    const startsAt = input.startsAt === undefined ? base.startsAt : timestampOf(input.startsAt, 'startsAt');
    const endsAt = input.endsAt === undefined ? base.endsAt : input.endsAt === null ? null : timestampOf(input.endsAt, 'endsAt');
    if (endsAt && endsAt <= startsAt) throw AppError.invalid('endsAt', 'must be after startsAt');
    const allowReservedRanges = input.allowReservedRanges ?? base.allowReservedRanges;
    return {
      name,
      productId: input.productId,
      seats: input.seats === undefined ? base.seats : input.seats,
      startsAt,
      endsAt,
      domains: domainsOf(input.domains ?? base.domains),
      ipRanges: rangesOf(input.ipRanges ?? base.ipRanges, allowReservedRanges),
      allowReservedRanges,
      managerIds: await this.managersOf(publicationId, input.managerIds ?? base.managerIds),
    };
  }

  /** Customers of the publication, each once. */
  private async managersOf(publicationId: string, managerIds: string[]): Promise<string[]> {
    const unique = [...new Set(managerIds)];
    if (unique.length > ORGANISATION_MANAGERS_MAX) throw AppError.invalid('managerIds', `must be at most ${ORGANISATION_MANAGERS_MAX} customers`);
    for (const customerId of unique) {
      const known = isUuid(customerId)
        ? await this.bus.request(IdentityRequests.GetCustomer, { publicationId, customerId }).then(
            () => true,
            (err: unknown) => {
              if (err instanceof AppError && err.code === 'not_found') return false;
              throw err;
            },
          )
        : false;
      if (!known) throw AppError.invalid('managerIds', `${customerId} is not a customer of this publication`);
    }
    return unique;
  }
}

function assertSeatsCover(seats: number | null, used: number): void {
  if (seats !== null && seats < used) throw AppError.invalid('seats', `must be at least the ${used} seats in use: remove members first`);
}

function timestampOf(value: string, field: string): Date {
  const time = parseTimestamp(value);
  if (!time) throw AppError.invalid(field, 'must be an ISO 8601 timestamp');
  return time;
}

function domainsOf(domains: string[]): string[] {
  const normalized = [...new Set(domains.map((domain) => domain.trim().toLowerCase()))];
  if (normalized.length > ORGANISATION_DOMAINS_MAX) throw AppError.invalid('domains', `must be at most ${ORGANISATION_DOMAINS_MAX}`);
  const bad = normalized.find((domain) => !DOMAIN.test(domain));
  if (bad !== undefined) throw AppError.invalid('domains', `${bad} is not a domain name (like example.edu)`);
  return normalized;
}

/** Canonical CIDR ranges, none overlapping another of the list, none reserved unless allowed. */
function rangesOf(texts: string[], allowReserved: boolean): string[] {
  if (texts.length > ORGANISATION_IP_RANGES_MAX) throw AppError.invalid('ipRanges', `must be at most ${ORGANISATION_IP_RANGES_MAX}`);
  const ranges: IpRange[] = [];
  for (const text of texts) {
    const range = parseCidr(text);
    if (!range) throw AppError.invalid('ipRanges', `${text} is not a CIDR range (like 81.2.69.0/24 or 2a02:1234::/32, no host bits set)`);
    const reserved = allowReserved ? null : reservedRangeOverlapping(range);
    if (reserved) throw AppError.invalid('ipRanges', `${range.cidr} is in the private or reserved range ${reserved}; allowReservedRanges admits it`);
    const overlapped = ranges.find((other) => rangesOverlap(other, range));
    if (overlapped) throw AppError.invalid('ipRanges', `${range.cidr} overlaps ${overlapped.cidr}`);
    ranges.push(range);
  }
  return ranges.map((range) => range.cidr);
}

/** Seats taken; `lock`: the organisation's row is locked first, so no join can slip past the count. */
export async function seatsUsed(manager: EntityManager, organisationId: string, lock = false): Promise<number> {
  if (lock) await manager.query('SELECT 1 FROM organisations WHERE id = $1 FOR UPDATE', [organisationId]);
  return (await seatsUsedOf(manager, [organisationId])).get(organisationId) ?? 0;
}

async function seatsUsedOf(manager: EntityManager, organisationIds: string[]): Promise<Map<string, number>> {
  if (organisationIds.length === 0) return new Map();
  const rows: Array<{ organisation_id: string; n: number }> = await manager.query(
    'SELECT organisation_id, count(*)::int AS n FROM organisation_members WHERE organisation_id = ANY($1::uuid[]) GROUP BY organisation_id',
    [organisationIds],
  );
  return new Map(rows.map((row) => [row.organisation_id, row.n]));
}

export function organisationView(organisation: Organisation, used: number): OrganisationView {
  return {
    id: organisation.id,
    name: organisation.name,
    productId: organisation.productId,
    seats: organisation.seats,
    seatsUsed: used,
    startsAt: organisation.startsAt.toISOString(),
    endsAt: organisation.endsAt?.toISOString() ?? null,
    domains: organisation.domains,
    ipRanges: organisation.ipRanges,
    allowReservedRanges: organisation.allowReservedRanges,
    managerIds: organisation.managerIds,
    processorSubscriptionId: organisation.processorSubscriptionId,
    createdAt: organisation.createdAt.toISOString(),
    updatedAt: organisation.updatedAt.toISOString(),
  };
}

export function organisationEventData(organisation: Organisation, used: number): OrganisationEventData {
  const { id, name, productId, seats, startsAt, endsAt, domains, ipRanges } = organisation;
  return { organisationId: id, name, productId, seats, seatsUsed: used, startsAt: startsAt.toISOString(), endsAt: endsAt?.toISOString() ?? null, domains, ipRanges };
}
