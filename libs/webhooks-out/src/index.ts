export * from './lib/webhooks-out.service';
export { DeliveryRetention } from './lib/deliveries/delivery-retention';
