import type { SegmentCondition } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A group of visitors described by conditions on what an access check knows of them (decisions E7). */
@Entity({ name: 'segments' })
export class Segment {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  match: 'all' | 'any';

  @Column({ type: 'jsonb' })
  conditions: SegmentCondition[];

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
