export * from './lib/branding.service';
