import type { BrandingMode } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One publication's branding (spec 2.7). A publication without a row has the defaults. */
@Entity({ name: 'branding_configurations' })
export class BrandingConfigurationRow {
  @PrimaryColumn({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  /** One more with every save; 0 for rows saved before revisions were counted. */
  @Column({ type: 'integer', default: 0 })
  revision: number;

  @Column({ name: 'branding_mode', type: 'text' })
  brandingMode: BrandingMode;

  @Column({ name: 'brand_color', type: 'text', nullable: true })
  brandColor: string | null;

  @Column({ name: 'brand_color_hover', type: 'text', nullable: true })
  brandColorHover: string | null;

  @Column({ name: 'logo_url', type: 'text', nullable: true })
  logoUrl: string | null;

  @Column({ name: 'border_radius', type: 'text', nullable: true })
  borderRadius: string | null;

  @Column({ name: 'font_family', type: 'text', nullable: true })
  fontFamily: string | null;

  @Column({ name: 'auth_heading', type: 'text', nullable: true })
  authHeading: string | null;

  @Column({ name: 'auth_description', type: 'text', nullable: true })
  authDescription: string | null;

  @Column({ name: 'auth_register_heading', type: 'text', nullable: true })
  authRegisterHeading: string | null;

  @Column({ name: 'auth_register_description', type: 'text', nullable: true })
  authRegisterDescription: string | null;

  @Column({ name: 'paywall_heading', type: 'text', nullable: true })
  paywallHeading: string | null;

  @Column({ name: 'paywall_description', type: 'text', nullable: true })
  paywallDescription: string | null;

  @Column({ name: 'paywall_cta_text', type: 'text', nullable: true })
  paywallCtaText: string | null;

  @Column({ name: 'soft_heading', type: 'text', nullable: true })
  softHeading: string | null;

  @Column({ name: 'soft_description', type: 'text', nullable: true })
  softDescription: string | null;

  @Column({ name: 'soft_cta_text', type: 'text', nullable: true })
  softCtaText: string | null;

  @Column({ name: 'registration_heading', type: 'text', nullable: true })
  registrationHeading: string | null;

  @Column({ name: 'registration_description', type: 'text', nullable: true })
  registrationDescription: string | null;

  @Column({ name: 'registration_cta_text', type: 'text', nullable: true })
  registrationCtaText: string | null;

  @Column({ name: 'newsletter_heading', type: 'text', nullable: true })
  newsletterHeading: string | null;

  @Column({ name: 'newsletter_description', type: 'text', nullable: true })
  newsletterDescription: string | null;

  @Column({ name: 'newsletter_cta_text', type: 'text', nullable: true })
  newsletterCtaText: string | null;

  @Column({ name: 'data_heading', type: 'text', nullable: true })
  dataHeading: string | null;

  @Column({ name: 'data_description', type: 'text', nullable: true })
  dataDescription: string | null;

  @Column({ name: 'data_cta_text', type: 'text', nullable: true })
  dataCtaText: string | null;

  @Column({ name: 'meter_notice_text', type: 'text', nullable: true })
  meterNoticeText: string | null;

  @Column({ name: 'meter_register_text', type: 'text', nullable: true })
  meterRegisterText: string | null;

  @Column({ name: 'custom_css', type: 'text', nullable: true })
  customCss: string | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
