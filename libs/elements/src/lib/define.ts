import { AuthModal, LoginForm, RegisterForm } from './auth';
import { MeterNotice } from './meter-notice';
import { ContentLock, InlinePaywall, PaywallModal, StickyBar } from './paywalls';

/** The seven tags of decisions J2, the meter notice, and their classes. */
export const ELEMENTS: Record<string, CustomElementConstructor> = {
  'gatehouse-login-form': LoginForm,
  'gatehouse-register-form': RegisterForm,
  'gatehouse-auth-modal': AuthModal,
  'gatehouse-paywall-modal': PaywallModal,
  'gatehouse-inline-paywall': InlinePaywall,
  'gatehouse-sticky-bar': StickyBar,
  'gatehouse-content-lock': ContentLock,
  'gatehouse-meter-notice': MeterNotice,
};

/** Registers every tag not yet registered (a page may load both builds). */
export function defineElements(): void {
  for (const [tag, element] of Object.entries(ELEMENTS)) if (!customElements.get(tag)) customElements.define(tag, element);
}
