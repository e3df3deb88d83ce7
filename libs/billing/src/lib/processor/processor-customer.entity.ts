import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A customer's account at the processor, and what the processor last told us about it. */
@Entity({ name: 'processor_customers' })
export class ProcessorCustomer {
  @PrimaryColumn({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @PrimaryColumn({ name: 'customer_id', type: 'uuid' })
  customerId: string;

  @Column({ name: 'processor_customer_id', type: 'text' })
  processorCustomerId: string;

  @Column({ type: 'text', nullable: true })
  email: string | null;

  @Column({ type: 'text', nullable: true })
  name: string | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
