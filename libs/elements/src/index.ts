export { AuthModal, LoginForm, RegisterForm } from './lib/auth';
export { ContentLock, InlinePaywall, PaywallModal, StickyBar, type OfferedPrice } from './lib/paywalls';
import { defineElements } from './lib/define';
export { defineElements, ELEMENTS } from './lib/define';
export { COPY_FIELDS, attributeOf } from './lib/copy';
export { THEME, resolveTheme } from './lib/theme';
export { textColorOn, contrastRatio } from './lib/contrast';
export { MESSAGES, messagesFor, type Messages } from './lib/messages';

defineElements();
export { defineAccount } from './lib/account-define';
export { ACCOUNT_MESSAGES, accountMessagesFor, type AccountMessages } from './lib/account-messages';
