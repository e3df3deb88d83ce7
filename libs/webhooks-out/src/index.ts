export * from './lib/webhooks-out.module';
export { DeliveryRetention } from './lib/deliveries/delivery-retention.service';
