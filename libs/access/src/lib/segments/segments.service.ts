import { Injectable } from '@nestjs/common';
import type { Page, PageRequest, SegmentChanges, SegmentDraft, SegmentView } from '@gatehouse/contracts';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, type Repository } from 'typeorm';
import { withChanges } from '../shared/changes';
import { rejectInvalid } from '../shared/invalid';
import { RulesWrites } from '../shared/rules-writes.service';
import { newestFirst, pageOf } from '@gatehouse/db';
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from '../shared/pg-errors';
import { conditionProblems } from '@gatehouse/access-decisions';
import { Segment } from './segment.entity';

const NEWEST_FIRST = newestFirst<Segment>('segment');

/** Segments of one publication: every lookup is scoped by it, so another publication's segment does not exist. */
@Injectable()
export class SegmentsService {
  private readonly segments: Repository<Segment>;

  constructor(
    dataSource: DataSource,
    private readonly clock: Clock,
    private readonly rules: RulesWrites,
  ) {
    this.segments = dataSource.getRepository(Segment);
  }

  list(publicationId: string, page: PageRequest): Promise<Page<SegmentView>> {
    const query = this.segments.createQueryBuilder('segment').where('segment.publication_id = :publicationId', { publicationId });
    return pageOf(query, NEWEST_FIRST, page, segmentView);
  }

  async get(publicationId: string, segmentId: string): Promise<SegmentView> {
    return segmentView(await this.require(publicationId, segmentId));
  }

  async create(publicationId: string, draft: SegmentDraft): Promise<SegmentView> {
    rejectInvalid(conditionProblems(draft.conditions), 'The segment is invalid.');
    const now = this.clock.now();
    const segment = this.segments.create({ id: randomUUID(), publicationId, ...pick(draft), createdAt: now, updatedAt: now });
    await this.rules.write(publicationId, (manager) => manager.insert(Segment, segment));
    return segmentView(segment);
  }

  async update(publicationId: string, segmentId: string, changes: SegmentChanges): Promise<SegmentView> {
    const segment = await this.require(publicationId, segmentId);
    const updated = { ...segment, ...pick(withChanges<SegmentDraft>(segment, changes)), updatedAt: this.clock.now() };
    rejectInvalid(conditionProblems(updated.conditions), 'The segment is invalid.');
    await this.rules.write(publicationId, (manager) => manager.save(Segment, updated));
    return segmentView(updated);
  }

  async delete(publicationId: string, segmentId: string): Promise<{ deleted: true }> {
    await this.require(publicationId, segmentId);
    try {
      await this.rules.write(publicationId, async (manager) => {
        const users: Array<{ name: string }> = await manager.query('SELECT name FROM paywalls WHERE segment_id = $1 ORDER BY name LIMIT 5', [segmentId]);
        if (users.length > 0) throw new AppError('conflict', `Paywalls use this segment: ${users.map((p) => p.name).join(', ')}.`);
        await manager.delete(Segment, { id: segmentId, publicationId });
      });
    } catch (err) {
      // A paywall took the segment up between the look and the delete: the foreign key refused it.
      if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) throw new AppError('conflict', 'A paywall uses this segment.');
      throw err;
    }
    return { deleted: true };
  }

  /** 400 naming `field` unless the segment exists in the publication. */
  async requireReference(publicationId: string, segmentId: string, field: string): Promise<void> {
    const exists = isUuid(segmentId) && (await this.segments.existsBy({ id: segmentId, publicationId }));
    if (!exists) rejectInvalid([{ field, message: 'is not a segment of this publication' }]);
  }

  /** The publication's segment; 404 not_found for any other id. */
  async require(publicationId: string, segmentId: string): Promise<Segment> {
    const segment = isUuid(segmentId) ? await this.segments.findOneBy({ id: segmentId, publicationId }) : null;
    if (!segment) throw new AppError('not_found', 'No such segment.');
    return segment;
  }
}

function pick({ name, match, conditions }: SegmentDraft): SegmentDraft {
  return { name, match, conditions };
}

function segmentView(segment: Segment): SegmentView {
  return {
    id: segment.id,
    name: segment.name,
    match: segment.match,
    conditions: segment.conditions,
    createdAt: segment.createdAt.toISOString(),
    updatedAt: segment.updatedAt.toISOString(),
  };
}
