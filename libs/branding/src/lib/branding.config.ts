import { ServiceConfig } from '@gatehouse/platform';

/** Branding needs nothing beyond the settings every service reads. */
export class BrandingConfig extends ServiceConfig {}
