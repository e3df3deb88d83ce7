import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Decisions F2: one per publication; both secrets sealed with PROCESSOR_SETTINGS_KEY, never stored in clear. */
@Entity({ name: 'processor_settings' })
export class ProcessorSettings {
  @PrimaryColumn({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ name: 'secret_key_sealed', type: 'text' })
  secretKeySealed: string;

  @Column({ name: 'webhook_secret_sealed', type: 'text' })
  webhookSecretSealed: string;

  /** The endpoint this service created at the processor; null when the webhook secret was supplied. */
  @Column({ name: 'webhook_endpoint_id', type: 'text', nullable: true })
  webhookEndpointId: string | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
