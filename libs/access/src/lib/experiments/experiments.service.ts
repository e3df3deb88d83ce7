import { Injectable } from '@nestjs/common';
import type {
  Page,
  PageRequest,
  ExperimentChanges,
  ExperimentDraft,
  ExperimentVariant,
  ExperimentVariantDraft,
  ExperimentView,
  FieldError,
} from '@gatehouse/contracts';
import { OfferRequests } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, type Repository } from 'typeorm';
import { parsePaywallConfig } from '@gatehouse/contracts/paywall-config';
import type { Paywall } from '../paywalls/paywall.entity';
import { PaywallsService } from '../paywalls/paywalls.service';
import { rejectInvalid } from '../shared/invalid';
import { RulesWrites } from '../shared/rules-writes.service';
import { newestFirst, pageOf } from '@gatehouse/db';
import { pgErrorCode, UNIQUE_VIOLATION } from '../shared/pg-errors';
import { row } from '../shared/row';
import { Experiment } from './experiment.entity';

const NEWEST_FIRST = newestFirst<Experiment>('experiment');

const RIVAL_RUNNING = 'Another experiment is running on this paywall.';

/** Experiments of one publication (decisions H4): drafts are edited, then started once and stopped once. */
@Injectable()
export class ExperimentsService {
  private readonly experiments: Repository<Experiment>;

  constructor(
    dataSource: DataSource,
    private readonly clock: Clock,
    private readonly paywalls: PaywallsService,
    private readonly rules: RulesWrites,
    private readonly bus: BusClient,
  ) {
    this.experiments = dataSource.getRepository(Experiment);
  }

  list(publicationId: string, page: PageRequest): Promise<Page<ExperimentView>> {
    const query = this.experiments.createQueryBuilder('experiment').where('experiment.publication_id = :publicationId', { publicationId });
    return pageOf(query, NEWEST_FIRST, page, experimentView);
  }

  async get(publicationId: string, experimentId: string): Promise<ExperimentView> {
    return experimentView(await this.require(publicationId, experimentId));
  }

  async create(publicationId: string, draft: ExperimentDraft): Promise<ExperimentView> {
    const paywall = await this.paywallOf(publicationId, draft.paywallId);
    const variants = checkedVariants(draft.variants, [], paywall);
    await this.checkOffers(publicationId, variants);
    const now = this.clock.now();
    const experiment = this.experiments.create({
      id: randomUUID(),
      publicationId,
      paywallId: paywall.id,
      name: draft.name,
      status: 'draft',
      variants,
      startedAt: null,
      stoppedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.rules.write(publicationId, (manager) => manager.insert(Experiment, row<Experiment>(experiment)));
    return experimentView(experiment);
  }

  /** The name may change at any time; the variants only while a draft, so no visitor changes variant mid-experiment. */
  async update(publicationId: string, experimentId: string, changes: ExperimentChanges): Promise<ExperimentView> {
    const experiment = await this.require(publicationId, experimentId);
    const updated = { ...experiment, updatedAt: this.clock.now() };
    if (changes.name != null) updated.name = changes.name;
    if (changes.variants != null) {
      if (experiment.status !== 'draft') throw new AppError('conflict', `The variants of a ${experiment.status} experiment cannot change.`);
      const paywall = await this.paywalls.require(publicationId, experiment.paywallId);
      updated.variants = checkedVariants(changes.variants, experiment.variants, paywall);
      await this.checkOffers(publicationId, updated.variants);
    }
    // Only if no concurrent start moved the experiment on meanwhile.
    const { affected } = await this.rules.write(publicationId, (manager) =>
      manager.update(Experiment, { id: experimentId, publicationId, status: experiment.status }, row<Experiment>({ name: updated.name, variants: updated.variants, updatedAt: updated.updatedAt })),
    );
    if (!affected) throw new AppError('conflict', 'The experiment changed meanwhile; reload it.');
    return experimentView(updated);
  }

  private async checkOffers(publicationId: string, variants: readonly ExperimentVariant[]): Promise<void> {
    const errors: FieldError[] = [];
    for (const [i, variant] of variants.entries()) {
      const code = variant.overrides.offerCode;
      if (!code) continue;
      try {
        await this.bus.request(OfferRequests.FindOfferTerms, { publicationId, code, reader: null });
      } catch (err) {
        if (!(err instanceof AppError && UNUSABLE_OFFER.has(err.code))) throw err;
        errors.push({ field: `variants[${i}].overrides.offerCode`, message: 'is not an offer of this publication that can be redeemed now' });
      }
    }
    rejectInvalid(errors, 'The experiment is invalid.');
  }

  async delete(publicationId: string, experimentId: string): Promise<{ deleted: true }> {
    const experiment = await this.require(publicationId, experimentId);
    if (experiment.status === 'running') throw new AppError('conflict', 'A running experiment cannot be deleted: stop it first.');
    const { affected } = await this.rules.write(publicationId, (manager) => manager.delete(Experiment, { id: experimentId, publicationId, status: experiment.status }));
    if (!affected) throw new AppError('conflict', 'The experiment changed meanwhile; reload it.');
    return { deleted: true };
  }

  async start(publicationId: string, experimentId: string): Promise<ExperimentView> {
    const experiment = await this.require(publicationId, experimentId);
    if (experiment.status !== 'draft') throw new AppError('conflict', `Only a draft can start; this experiment is ${experiment.status}.`);
    // The paywall may have changed type since the variants were written.
    const paywall = await this.paywalls.require(publicationId, experiment.paywallId);
    rejectInvalid(overrideProblems(experiment.variants, paywall), 'A variant no longer fits its paywall.');
    if (await this.experiments.existsBy({ paywallId: paywall.id, status: 'running' })) throw new AppError('conflict', RIVAL_RUNNING);
    return this.move(experiment, 'draft', { status: 'running', startedAt: this.clock.now() });
  }

  async stop(publicationId: string, experimentId: string): Promise<ExperimentView> {
    const experiment = await this.require(publicationId, experimentId);
    if (experiment.status !== 'running') throw new AppError('conflict', `Only a running experiment can stop; this one is ${experiment.status}.`);
    return this.move(experiment, 'running', { status: 'stopped', stoppedAt: this.clock.now() });
  }

  /** Applies the transition only if no concurrent request moved the experiment first. */
  private async move(experiment: Experiment, from: Experiment['status'], to: Partial<Experiment>): Promise<ExperimentView> {
    const moved = { ...experiment, ...to, updatedAt: this.clock.now() };
    let affected: number | undefined;
    try {
      ({ affected } = await this.rules.write(experiment.publicationId, (manager) =>
        manager.update(Experiment, { id: experiment.id, status: from }, { status: moved.status, startedAt: moved.startedAt, stoppedAt: moved.stoppedAt, updatedAt: moved.updatedAt }),
      ));
    } catch (err) {
      // Two starts on one paywall raced past the look above: the unique index let one through.
      if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AppError('conflict', RIVAL_RUNNING);
      throw err;
    }
    if (!affected) throw new AppError('conflict', 'The experiment changed meanwhile; reload it.');
    return experimentView(moved);
  }

  private async paywallOf(publicationId: string, paywallId: string): Promise<Paywall> {
    try {
      return await this.paywalls.require(publicationId, paywallId);
    } catch {
      throw AppError.invalid('paywallId', 'is not a paywall of this publication');
    }
  }

  private async require(publicationId: string, experimentId: string): Promise<Experiment> {
    const experiment = isUuid(experimentId) ? await this.experiments.findOneBy({ id: experimentId, publicationId }) : null;
    if (!experiment) throw new AppError('not_found', 'No such experiment.');
    return experiment;
  }
}

/** An offer a variant carries must be one of the publication's that a reader could redeem now (billing answers). */
const UNUSABLE_OFFER = new Set(['not_found', 'offer_expired', 'offer_exhausted', 'validation_failed']);

/** The variants to store: ids kept when they name a variant of this experiment, generated otherwise. */
function checkedVariants(drafts: readonly ExperimentVariantDraft[], current: readonly ExperimentVariant[], paywall: Paywall): ExperimentVariant[] {
  const known = new Set(current.map((variant) => variant.id));
  const errors: FieldError[] = [];
  const names = new Set<string>();
  const ids = new Set<string>();
  const variants = drafts.map((draft, i) => {
    const keptId = draft.id?.toLowerCase();
    if (keptId !== undefined && (!known.has(keptId) || ids.has(keptId))) {
      errors.push({ field: `variants[${i}].id`, message: 'must name another variant of this experiment, or be left out' });
    }
    const key = draft.name.trim().toLowerCase();
    if (names.has(key)) errors.push({ field: `variants[${i}].name`, message: 'is used by another variant' });
    names.add(key);
    const id = keptId ?? randomUUID();
    ids.add(id);
    return { id, name: draft.name, weight: draft.weight, overrides: draft.overrides ?? {} };
  });
  if (variants.reduce((sum, variant) => sum + variant.weight, 0) <= 0) errors.push({ field: 'variants', message: 'the weights must add up to more than 0' });
  errors.push(...overrideProblems(variants, paywall));
  rejectInvalid(errors, 'The experiment is invalid.');
  return variants;
}

function overrideProblems(variants: readonly ExperimentVariant[], paywall: Paywall): FieldError[] {
  return variants.flatMap((variant, i) =>
    variant.overrides.config
      ? parsePaywallConfig(paywall.type, { ...paywall.config, ...variant.overrides.config }, `variants[${i}].overrides.config`).errors
      : [],
  );
}

function experimentView(experiment: Experiment): ExperimentView {
  return {
    id: experiment.id,
    name: experiment.name,
    paywallId: experiment.paywallId,
    status: experiment.status,
    variants: experiment.variants,
    startedAt: experiment.startedAt?.toISOString() ?? null,
    stoppedAt: experiment.stoppedAt?.toISOString() ?? null,
    createdAt: experiment.createdAt.toISOString(),
    updatedAt: experiment.updatedAt.toISOString(),
  };
}
