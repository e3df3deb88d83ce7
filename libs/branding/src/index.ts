export * from './lib/branding.module';
