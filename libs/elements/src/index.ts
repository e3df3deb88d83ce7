export { AuthModal, LoginForm, RegisterForm } from './lib/auth';
export { MeterNotice } from './lib/meter-notice';
export { ContentLock, InlinePaywall, PaywallModal, StickyBar, type OfferedPrice } from './lib/paywalls';
import { defineElements } from './lib/define';
import { defineOfferCode } from './lib/offer-code';
export { defineElements, ELEMENTS } from './lib/define';
export { COPY_FIELDS, attributeOf } from './lib/copy';
export { THEME, resolveTheme } from './lib/theme';
export { textColorOn, contrastRatio } from './lib/contrast';
export { MESSAGES, messagesFor, registerMessages, type Messages } from './lib/messages';
export { OfferCode, defineOfferCode } from './lib/offer-code';
export { offerTermsText } from './lib/offer-terms';
export { defineAccount } from './lib/account-define';
export { ACCOUNT_MESSAGES_EN, type AccountMessages } from './lib/account-messages';
export { defineGift } from './lib/gift-define';
export { giftMessagesFor, type GiftMessages } from './lib/gift';

defineElements();
defineOfferCode();
