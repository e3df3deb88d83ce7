export {
  FakeProcessor,
  startFakeProcessor,
  type CompletedCheckout,
  type EventOptions,
  type FailureRule,
  type FakeProcessorOptions,
  type ProcessorEvent,
  type RecordedRequest,
  type SubscriptionChanges,
} from './lib/fake-processor';
export type { FormValue } from './lib/form';
export type { ProcessorObject } from './lib/objects';
export { deliverEvent, signatureHeader, type DeliveryOptions, type DeliveryResult } from './lib/signing';
