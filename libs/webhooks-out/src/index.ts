export * from './lib/webhooks-out.service';
