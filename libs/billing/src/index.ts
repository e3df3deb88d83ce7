export * from './lib/billing.module';
export { ManualGrantExpiry } from './lib/subscriptions/manual-grant-expiry.service';
export { ScheduledPlanChanges } from './lib/subscriptions/scheduled-plan-changes.service';
export { WinBackService } from './lib/cancellation/win-back.service';
export { GiftMail } from './lib/gifts/gift-mail.service';
