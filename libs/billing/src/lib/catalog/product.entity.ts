import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Decisions F1: what a publication sells. */
@Entity({ name: 'products' })
export class Product {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** Paywall ids the product unlocks; empty means every paywall. */
  @Column({ type: 'uuid', array: true })
  entitlements: string[];

  @Column({ type: 'boolean' })
  active: boolean;

  /** The product's id at the processor; null until processor settings exist. */
  @Column({ name: 'processor_product_id', type: 'text', nullable: true })
  processorProductId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
