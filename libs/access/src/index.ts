export * from './lib/access.service';
