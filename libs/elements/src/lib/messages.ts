import type { MeterPeriod, PaywallType } from '@gatehouse/contracts';
import type { AccountMessages } from './account-messages';

/*
 * The message catalogue: every text the elements show, one table per locale (docs/elements.md,
 * "Messages"). English is built in; the other tables are JSON files beside elements.js
 * (`messages/<lang>.json`, served as `/sdk/v1/messages-<lang>.<hash>.json`), fetched once per page
 * when an element's `lang` (or an ancestor's, or the page's) asks for one, and the elements wait for
 * it before they first render. The branding copy fields fall back to the entries named after them.
 */

/** The forms of a count by the locale's plural rules (`Intl.PluralRules`); `{n}` is the count. */
export type Plural = { other: string } & Partial<Record<Exclude<Intl.LDMLPluralRule, 'other'>, string>>;

export interface Messages {
  dir: 'ltr' | 'rtl';
  authHeading: string;
  authDescription: string;
  authRegisterHeading: string;
  authRegisterDescription: string;
  /** A subscription wall's (hard, metered) copy. */
  paywallHeading: string;
  paywallDescription: string;
  paywallCtaText: string;
  softHeading: string;
  softDescription: string;
  softCtaText: string;
  registrationHeading: string;
  registrationDescription: string;
  registrationCtaText: string;
  newsletterHeading: string;
  newsletterDescription: string;
  newsletterCtaText: string;
  dataHeading: string;
  dataDescription: string;
  dataCtaText: string;
  /** The meter notice while free articles are left: `{n}` of them, `{period}` one of `meterPeriod`. */
  meterLeft: Plural;
  /** The meter notice on a page a share link opened: `{name}` is the sharer's first name. */
  sharedBy: string;
  /** The meter notice on the last free article. */
  meterLast: string;
  meterPeriod: Record<MeterPeriod, string>;
  /** The meter notice's link for a reader not signed in, to the registration form. */
  meterRegisterText: string;
  email: string;
  password: string;
  name: string;
  signIn: string;
  createAccount: string;
  toRegister: string;
  toLogin: string;
  haveAccount: string;
  close: string;
  working: string;
  failed: string;
  unreachable: string;
  choosePlan: string;
  noPlans: string;
  /** After a price: "€6.00 a month". */
  interval: Record<'month' | 'year' | 'lifetime', string>;
  /** A price with a trial: `{n}` days, `{price}` the price with its interval. */
  trial: Plural;
  /** A time pass offered beside the plans, by its whole days or else its hours (`{n}`). */
  passDays: Plural;
  passHours: Plural;
  /** A single article offered beside the plans: the page the reader is on. */
  thisArticle: string;
  /** Why a wall shows, where the element has no description of its own (sticky bar, content lock). */
  reason: Record<PaywallType, string>;
  authDialog: string;
  paywallDialog: string;
  locked: string;
  forgotPassword: string;
  emailCode: string;
  resetHeading: string;
  resetDescription: string;
  sendLink: string;
  checkInbox: string;
  /** `{email}` is the address. */
  resetSent: string;
  codeHeading: string;
  codeDescription: string;
  sendCode: string;
  /** `{email}` is the address. */
  codeSent: string;
  code: string;
  newCode: string;
  newPasswordHeading: string;
  newPasswordDescription: string;
  newPassword: string;
  savePassword: string;
  linkHeading: string;
  linkDescription: string;
  signMeIn: string;
  verifyHeading: string;
  verifyDescription: string;
  confirmEmail: string;
  verified: string;
  signedInHeading: string;
  /** `{email}` is the address. */
  signedInAs: string;
  /** `{email}` is the address. */
  passwordSaved: string;
  signOut: string;
  continueReading: string;
  backToSignIn: string;
  codeInvalid: string;
  linkInvalid: string;
  tooMany: string;
  /** `{field}` is the field's label. */
  required: string;
  invalidEmail: string;
  /** `{field}` is the field's label. */
  invalidValue: string;
  passwordRule: string;
  nameRule: string;
  emailTaken: string;
  invalidCredentials: string;
  registrationClosed: string;
  signInAgain: string;
  paymentFailed: string;
  subscribed: string;
  /** The account elements' words (account.js); English is built into account.js, so only the other languages' tables carry it. */
  account?: AccountMessages;
  /** The same on return from buying a pass or a single article. */
  purchased: string;
}

const en: Messages = {
  dir: 'ltr',
  authHeading: 'Sign in',
  authDescription: 'Welcome back. Sign in to keep reading.',
  authRegisterHeading: 'Create your account',
  authRegisterDescription: 'It takes a minute, and it is free.',
  paywallHeading: 'Subscribe to keep reading',
  paywallDescription: 'Get unlimited access to every article.',
  paywallCtaText: 'Subscribe',
  softHeading: 'Support our journalism',
  softDescription: 'Readers like you keep our reporting free. Become a subscriber today.',
  softCtaText: 'Become a subscriber',
  registrationHeading: 'Create a free account to keep reading',
  registrationDescription: 'No payment needed: an account is all it takes.',
  registrationCtaText: 'Create a free account',
  newsletterHeading: 'Get our newsletter to keep reading',
  newsletterDescription: 'Enter your email address: the newsletter is free, and every issue has a link to stop it.',
  newsletterCtaText: 'Sign up',
  dataHeading: 'Tell us about yourself to keep reading',
  dataDescription: 'A few details, and the article is yours.',
  dataCtaText: 'Continue',
  meterLeft: { one: '{n} free article left {period}', other: '{n} free articles left {period}' },
  sharedBy: '{name} shared this article with you.',
  meterLast: 'This is your last free article {period}.',
  meterPeriod: { day: 'today', week: 'this week', month: 'this month' },
  meterRegisterText: 'Create a free account',
  email: 'Email',
  password: 'Password',
  name: 'Name',
  signIn: 'Sign in',
  createAccount: 'Create account',
  toRegister: 'New here? Create an account',
  toLogin: 'Already have an account? Sign in',
  haveAccount: 'Already a subscriber? Sign in',
  close: 'Close',
  working: 'Please wait…',
  failed: 'Something went wrong. Please try again.',
  unreachable: 'The service cannot be reached. Please try again later.',
  choosePlan: 'Choose a plan',
  noPlans: 'No plan is on sale right now.',
  interval: { month: 'a month', year: 'a year', lifetime: 'once' },
  trial: { one: '{n} day free, then {price}', other: '{n} days free, then {price}' },
  passDays: { one: '{n}-day pass', other: '{n}-day pass' },
  passHours: { one: '{n}-hour pass', other: '{n}-hour pass' },
  thisArticle: 'This article only',
  reason: {
    hard: 'This article is for subscribers.',
    soft: 'Support our journalism.',
    metered: 'You have read all your free articles for now.',
    registration: 'Create a free account to read this article.',
    newsletter: 'Sign up to our newsletter to read this article.',
    data: 'Tell us a little about yourself to read this article.',
  },
  authDialog: 'Sign in or create an account',
  paywallDialog: 'Offer',
  locked: 'Locked content',
  forgotPassword: 'Forgot password?',
  emailCode: 'Email me a code',
  resetHeading: 'Reset your password',
  resetDescription: 'Enter the email address of your account and we will send you a link to choose a new password.',
  sendLink: 'Send me a link',
  checkInbox: 'Check your inbox',
  resetSent: 'If {email} belongs to an account, a link to choose a new password is on its way. It works for 30 minutes.',
  codeHeading: 'Sign in with a code',
  codeDescription: 'Enter the email address of your account and we will send you a 6-digit code.',
  sendCode: 'Email me a code',
  codeSent: 'If {email} belongs to an account, a 6-digit code is on its way. Enter it here; it works for 15 minutes.',
  code: '6-digit code',
  newCode: 'Send a new code',
  newPasswordHeading: 'Choose a new password',
  newPasswordDescription: 'At least 8 characters. You will be signed in, and signed out everywhere else.',
  newPassword: 'New password',
  savePassword: 'Save and sign in',
  linkHeading: 'Sign in',
  linkDescription: 'You opened a sign-in link from your email.',
  signMeIn: 'Sign me in',
  verifyHeading: 'Confirm your email address',
  verifyDescription: 'You opened a link from your email to confirm that this address is yours.',
  confirmEmail: 'Confirm my email address',
  verified: 'Thank you: your email address is confirmed.',
  signedInHeading: 'You are signed in',
  signedInAs: 'You are signed in as {email}.',
  passwordSaved: 'Your new password is saved, and you are signed in as {email}.',
  signOut: 'Sign out',
  continueReading: 'Continue',
  backToSignIn: 'Back to sign in',
  codeInvalid: 'That code is wrong or has expired. Check the email, or ask for a new code.',
  linkInvalid: 'This link has expired or has been used already. Please ask for a new one.',
  tooMany: 'Too many attempts. Please wait a few minutes and try again.',
  required: '{field} is required.',
  invalidEmail: 'Enter a valid email address.',
  invalidValue: 'Enter a valid value for {field}.',
  passwordRule: 'Your password must be 8 to 72 characters long.',
  nameRule: 'Enter your name (at most 100 characters).',
  emailTaken: 'An account with this email address already exists. Sign in instead.',
  invalidCredentials: 'The email address or the password is wrong.',
  registrationClosed: 'This site does not take new accounts. If you have one, sign in.',
  signInAgain: 'Your session has ended. Please sign in again.',
  paymentFailed: 'The payment could not be started. Please try again in a moment.',
  subscribed: 'You are subscribed. Enjoy reading!',
  purchased: 'Thank you for your purchase. Enjoy reading!',
};

/** The tables at hand: English, and each one fetched or registered since. */
export const MESSAGES: Record<string, Messages> = { en };

/** The file of each other locale, by primary subtag: filled in by libs/elements/build.mjs (content-hashed names). */
declare const GATEHOUSE_LOCALE_FILES: Record<string, string> | undefined;
const FILES: Record<string, string> = typeof GATEHOUSE_LOCALE_FILES === 'object' ? GATEHOUSE_LOCALE_FILES : {};
/** How long an element waits for a table before it shows English. */
const LOAD_TIMEOUT_MS = 5_000;

let base: string | undefined;
const loading: Record<string, Promise<void>> = {};
const done = new Set<string>();

const primaryOf = (lang: string | null | undefined): string => (lang ?? '').toLowerCase().split('-')[0];

/** Where the tables are: the URL of elements.js (the classic script sets it), else of the page's Gatehouse script. */
export function setMessagesBase(url: string): void {
  base = url;
}

/** A table for a locale, for a bundler's build that ships its own (`messages/<lang>.json` of the package). */
export function registerMessages(lang: string, table: Messages): void {
  MESSAGES[primaryOf(lang)] = table;
}

/** The table for a BCP 47 tag (`ar-EG` → `ar`) when it is at hand, English otherwise. */
export function messagesFor(lang: string | null | undefined): Messages {
  return MESSAGES[primaryOf(lang)] ?? en;
}

/**
 * Fetches the table of `lang` once per page; null when there is nothing to wait for (English, a
 * table at hand, a locale without one). Resolves when it is here, or failed (then English shows).
 */
export function loadMessages(lang: string | null | undefined): Promise<void> | null {
  const primary = primaryOf(lang);
  const file = FILES[primary];
  base ??= document.querySelector<HTMLScriptElement>('script[src*="/sdk/v1/"]')?.src;
  if (MESSAGES[primary] || !file || !base || done.has(primary)) return null;
  loading[primary] ??= Promise.race([
    fetch(new URL(file, base).href)
      .then((response) => (response.ok ? response.json() : null))
      .then((table: Messages | null) => {
        if (table?.dir) MESSAGES[primary] = table;
      }),
    new Promise<void>((resolve) => setTimeout(resolve, LOAD_TIMEOUT_MS)),
  ])
    .catch(() => undefined)
    // Tried once per page: a table that did not come leaves English, without holding later renders.
    .finally(() => done.add(primary));
  return loading[primary];
}

/** A message with its `{name}` placeholders filled in. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The form of a plural message for `n` in `lang`, filled in. */
export function plural(forms: Plural, n: number, lang: string, values: Record<string, string | number> = {}): string {
  let category: Intl.LDMLPluralRule = 'other';
  let count = String(n);
  try {
    category = new Intl.PluralRules(lang).select(n);
    count = new Intl.NumberFormat(lang).format(n);
  } catch {
    // An unknown tag: the "other" form, the digits as they are.
  }
  return fill(forms[category] ?? forms.other, { n: count, ...values });
}
