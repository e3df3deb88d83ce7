export * from './lib/admin.service';
