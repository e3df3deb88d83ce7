import { Injectable } from '@nestjs/common';
import { BillingRequests, isPurchase, type FieldError, type Page, type PageRequest, type PaywallChanges, type PaywallDraft, type PaywallView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import { SegmentsService } from '../segments/segments.service';
import { rejectInvalid } from '../shared/invalid';
import { RulesWrites } from '../shared/rules-writes.service';
import { row } from '../shared/row';
import { pageOf, type Keyset } from '@gatehouse/db';
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from '../shared/pg-errors';
import { checkDefinition, definitionOfDraft, definitionWithChanges, paywallView, type PaywallDefinition } from './paywall-definition';
import { MAX_GLOB_CHARACTERS_PER_PUBLICATION, MAX_GLOBS_PER_PUBLICATION, MAX_PAYWALLS_PER_PUBLICATION } from '@gatehouse/access-decisions';
import { Paywall } from './paywall.entity';

/** The order in which paywalls compete for a page: lowest priority first, then the oldest. */
const BY_PRIORITY: Keyset<Paywall> = {
  columns: [
    { column: 'paywall.priority', type: 'integer' },
    { column: 'paywall.created_at', type: 'timestamptz' },
    { column: 'paywall.id', type: 'uuid' },
  ],
  direction: 'ASC',
  valuesOf: (paywall) => [paywall.priority, paywall.createdAt.toISOString(), paywall.id],
};

/** Paywalls of one publication. Each write tells every replica's catalog of the change in its transaction (RulesWrites). */
@Injectable()
export class PaywallsService {
  private readonly paywalls: Repository<Paywall>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly segments: SegmentsService,
    private readonly rules: RulesWrites,
    private readonly bus: BusClient,
  ) {
    this.paywalls = dataSource.getRepository(Paywall);
  }

  list(publicationId: string, page: PageRequest): Promise<Page<PaywallView>> {
    const query = this.paywalls.createQueryBuilder('paywall').where('paywall.publication_id = :publicationId', { publicationId });
    return pageOf(query, BY_PRIORITY, page, paywallView);
  }

  async get(publicationId: string, paywallId: string): Promise<PaywallView> {
    return paywallView(await this.require(publicationId, paywallId));
  }

  async create(publicationId: string, draft: PaywallDraft): Promise<PaywallView> {
    const definition = await this.checked(publicationId, definitionOfDraft(draft), draft.oneTimePriceIds !== undefined);
    const now = this.clock.now();
    const paywall = this.paywalls.create({ id: randomUUID(), publicationId, ...definition, createdAt: now, updatedAt: now });
    await this.write(publicationId, (manager) => manager.insert(Paywall, row<Paywall>(paywall)));
    return paywallView(paywall);
  }

  async update(publicationId: string, paywallId: string, changes: PaywallChanges): Promise<PaywallView> {
    const current = await this.require(publicationId, paywallId);
    const definition = await this.checked(publicationId, definitionWithChanges(current, changes), changes.oneTimePriceIds !== undefined);
    const updated = { ...current, ...definition, updatedAt: this.clock.now() };
    await this.write(publicationId, (manager) => manager.update(Paywall, { id: paywallId, publicationId }, row<Paywall>({ ...definition, updatedAt: updated.updatedAt })));
    return paywallView(updated);
  }

  /** Its draft and stopped experiments go with it; a running one must be stopped first. */
  async delete(publicationId: string, paywallId: string): Promise<{ deleted: true }> {
    await this.require(publicationId, paywallId);
    await this.rules.write(publicationId, async (manager) => {
      const running: unknown[] = await manager.query("SELECT 1 FROM experiments WHERE paywall_id = $1 AND status = 'running'", [paywallId]);
      if (running.length > 0) throw new AppError('conflict', 'A running experiment covers this paywall: stop it first.');
      await manager.delete(Paywall, { id: paywallId, publicationId });
    });
    return { deleted: true };
  }

  /** The paywall, or 404 when it is not one of the publication's. */
  async require(publicationId: string, paywallId: string): Promise<Paywall> {
    const paywall = isUuid(paywallId) ? await this.paywalls.findOneBy({ id: paywallId, publicationId }) : null;
    if (!paywall) throw new AppError('not_found', 'No such paywall.');
    return paywall;
  }

  /** Within the publication's limits, or nothing is written. The segment deleted meanwhile: the foreign key refuses the paywall. */
  private async write(publicationId: string, change: (manager: EntityManager) => Promise<unknown>): Promise<void> {
    try {
      await this.rules.write(publicationId, async (manager) => {
        await change(manager);
        await withinLimits(manager, publicationId);
      });
    } catch (err) {
      if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) rejectInvalid([{ field: 'segmentId', message: 'is not a segment of this publication' }]);
      throw err;
    }
  }

  /** `pricesGiven`: the write names the one-time prices, which billing is asked about. */
  private async checked(publicationId: string, proposed: PaywallDefinition, pricesGiven: boolean): Promise<PaywallDefinition> {
    const { definition, errors } = checkDefinition(proposed);
    if (pricesGiven) errors.push(...(await this.oneTimePriceErrors(publicationId, definition.oneTimePriceIds)));
    rejectInvalid(errors, 'The paywall is invalid.');
    if (definition.segmentId !== null) await this.segments.requireReference(publicationId, definition.segmentId, 'segmentId');
    return definition;
  }

  /** Each must be a pass or single-article price of the publication (billing's catalogue); another's reads as unknown. */
  private async oneTimePriceErrors(publicationId: string, priceIds: string[]): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    for (const [i, priceId] of priceIds.entries()) {
      try {
        const price = await this.bus.request(BillingRequests.GetPrice, { publicationId, priceId });
        if (!isPurchase(price.interval)) errors.push({ field: `oneTimePriceIds[${i}]`, message: 'is not a pass or single-article price' });
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'not_found')) throw err;
        errors.push({ field: `oneTimePriceIds[${i}]`, message: 'is not a price of this publication' });
      }
    }
    return errors;
  }
}

/** Rule writes of a publication take turns (RulesWrites), so these totals include every committed paywall. */
async function withinLimits(manager: EntityManager, publicationId: string): Promise<void> {
  const [{ paywalls, globs, characters }]: Array<{ paywalls: number; globs: number; characters: number }> = await manager.query(
    `SELECT count(*)::int AS paywalls, coalesce(sum(cardinality(include_globs) + cardinality(exclude_globs)), 0)::int AS globs,
            coalesce(sum((SELECT sum(length(glob)) FROM unnest(include_globs || exclude_globs) AS glob)), 0)::int AS characters
       FROM paywalls WHERE publication_id = $1`,
    [publicationId],
  );
  if (paywalls > MAX_PAYWALLS_PER_PUBLICATION) throw new AppError('conflict', `A publication has at most ${MAX_PAYWALLS_PER_PUBLICATION} paywalls: delete one first.`);
  if (globs > MAX_GLOBS_PER_PUBLICATION) {
    rejectInvalid([{ field: 'match', message: `would make the publication's paywalls hold ${globs} globs; at most ${MAX_GLOBS_PER_PUBLICATION} are allowed` }]);
  }
  if (characters > MAX_GLOB_CHARACTERS_PER_PUBLICATION) {
    rejectInvalid([{ field: 'match', message: `would make the publication's globs ${characters} characters long together; at most ${MAX_GLOB_CHARACTERS_PER_PUBLICATION} are allowed` }]);
  }
}
