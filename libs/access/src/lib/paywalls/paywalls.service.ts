import { Injectable } from '@nestjs/common';
import type { Page, PageRequest, PaywallChanges, PaywallDraft, PaywallView } from '@gatehouse/contracts';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, type Repository } from 'typeorm';
import { SegmentsService } from '../segments/segments.service';
import { rejectInvalid } from '../shared/invalid';
import { row } from '../shared/row';
import { pageOf, type Keyset } from '@gatehouse/db';
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from '../shared/pg-errors';
import { checkDefinition, definitionOfDraft, definitionWithChanges, paywallView, type PaywallDefinition } from './paywall-definition';
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

/** Paywalls of one publication. Checks read them from the PaywallCatalog, which each write's handler tells of the change. */
@Injectable()
export class PaywallsService {
  private readonly paywalls: Repository<Paywall>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly segments: SegmentsService,
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
    const definition = await this.checked(publicationId, definitionOfDraft(draft));
    const now = this.clock.now();
    const paywall = this.paywalls.create({ id: randomUUID(), publicationId, ...definition, createdAt: now, updatedAt: now });
    await this.write(() => this.paywalls.insert(row<Paywall>(paywall)));
    return paywallView(paywall);
  }

  async update(publicationId: string, paywallId: string, changes: PaywallChanges): Promise<PaywallView> {
    const current = await this.require(publicationId, paywallId);
    const definition = await this.checked(publicationId, definitionWithChanges(current, changes));
    const updated = { ...current, ...definition, updatedAt: this.clock.now() };
    await this.write(() => this.paywalls.update({ id: paywallId, publicationId }, row<Paywall>({ ...definition, updatedAt: updated.updatedAt })));
    return paywallView(updated);
  }

  /** Its draft and stopped experiments go with it; a running one must be stopped first. */
  async delete(publicationId: string, paywallId: string): Promise<{ deleted: true }> {
    await this.require(publicationId, paywallId);
    const running: unknown[] = await this.dataSource.query("SELECT 1 FROM experiments WHERE paywall_id = $1 AND status = 'running'", [paywallId]);
    if (running.length > 0) throw new AppError('conflict', 'A running experiment covers this paywall: stop it first.');
    await this.paywalls.delete({ id: paywallId, publicationId });
    return { deleted: true };
  }

  /** The paywall, or 404 when it is not one of the publication's. */
  async require(publicationId: string, paywallId: string): Promise<Paywall> {
    const paywall = isUuid(paywallId) ? await this.paywalls.findOneBy({ id: paywallId, publicationId }) : null;
    if (!paywall) throw new AppError('not_found', 'No such paywall.');
    return paywall;
  }

  /** The segment was deleted between the check and the write: the foreign key refused the paywall. */
  private async write(change: () => Promise<unknown>): Promise<void> {
    try {
      await change();
    } catch (err) {
      if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) rejectInvalid([{ field: 'segmentId', message: 'is not a segment of this publication' }]);
      throw err;
    }
  }

  private async checked(publicationId: string, proposed: PaywallDefinition): Promise<PaywallDefinition> {
    const { definition, errors } = checkDefinition(proposed);
    rejectInvalid(errors, 'The paywall is invalid.');
    if (definition.segmentId !== null) await this.segments.requireReference(publicationId, definition.segmentId, 'segmentId');
    return definition;
  }
}
