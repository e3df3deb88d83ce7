import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An organisation (docs/organisations.md): group access to a product, by seat and by network. */
@Entity({ name: 'organisations' })
export class Organisation {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'product_id', type: 'uuid' })
  productId: string;

  /** Null: unlimited. */
  @Column({ type: 'integer', nullable: true })
  seats: number | null;

  @Column({ name: 'starts_at', type: 'timestamptz' })
  startsAt: Date;

  @Column({ name: 'ends_at', type: 'timestamptz', nullable: true })
  endsAt: Date | null;

  /** Lower case. */
  @Column({ type: 'text', array: true })
  domains: string[];

  /** Canonical CIDR text, no two overlapping within the publication. */
  @Column({ name: 'ip_ranges', type: 'text', array: true })
  ipRanges: string[];

  @Column({ name: 'allow_reserved_ranges', type: 'boolean' })
  allowReservedRanges: boolean;

  @Column({ name: 'manager_ids', type: 'uuid', array: true })
  managerIds: string[];

  @Column({ name: 'processor_subscription_id', type: 'text', nullable: true })
  processorSubscriptionId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
