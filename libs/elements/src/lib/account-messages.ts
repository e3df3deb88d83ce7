import type { CancellationReason, SubscriptionStatus } from '@gatehouse/contracts';

/*
 * What `<gatehouse-account>` and `<gatehouse-account-button>` say. English is here, built into
 * account.js; every other language's table is the `account` entry of that language's message
 * table (libs/elements/src/locales), which the page fetches for the other elements anyway, picked
 * by `lang` on the element or an ancestor. A few words the other elements also show (sign in,
 * create account, name, email, password, close) are repeated so that the table stands on its own.
 */
export interface AccountMessages {
  heading: string;
  signedOut: string;
  signIn: string;
  createAccount: string;
  account: string;
  name: string;
  email: string;
  password: string;
  edit: string;
  save: string;
  cancel: string;
  close: string;
  working: string;
  saved: string;
  verified: string;
  unverified: string;
  /** `{email}` is the address. */
  verifySent: string;
  resend: string;
  plan: string;
  noPlan: string;
  status: Record<SubscriptionStatus, string>;
  interval: Record<'month' | 'year' | 'lifetime', string>;
  /** `{date}` is a date. */
  renews: string;
  ends: string;
  trialEnds: string;
  /** The heading of the reader's passes and single articles (one-time purchases). */
  purchases: string;
  /** A pass: `{date}` is when it ends, to the minute. */
  passUntil: string;
  manageBilling: string;
  /** Shown while a subscription is past_due: its payment failed (issue #27). */
  paymentFailed: string;
  updatePayment: string;
  cancelPlan: string;
  cancelHeading: string;
  /** `{date}` is the period's end. */
  cancelDescription: string;
  reasonLabel: string;
  reasons: Record<CancellationReason, string>;
  confirmCancel: string;
  keepPlan: string;
  /** A save offer (issue #27): `{off}` (50 % or an amount) and `{name}` (staff's name of the offer); `{months}`; `{plan}` (the product and price). */
  saveDiscount: string;
  savePause: string;
  savePlan: string;
  acceptSave: string;
  saveAccepted: string;
  changePlan: string;
  choosePlan: string;
  /** `{amount}` charged now, then `{next}` from `{date}`. */
  previewNow: string;
  /** From `{date}`, `{next}`. */
  previewLater: string;
  confirmChange: string;
  /** `{date}` the change takes effect. */
  planChanged: string;
  pause: string;
  pauseHeading: string;
  pauseFor: string;
  /** One month, several months: `{n}`. */
  months: [string, string];
  confirmPause: string;
  /** `{date}` when collection resumes. */
  pausedUntil: string;
  resume: string;
  resumed: string;
  signOut: string;
  signOutEverywhere: string;
  signedOutEverywhere: string;
  yourData: string;
  download: string;
  downloaded: string;
  deleteAccount: string;
  deleteHeading: string;
  deleteDescription: string;
  confirmDelete: string;
  /** Confirming a deletion by an emailed code instead of the password. */
  useCode: string;
  /** `{email}` is the reader's address. */
  codeSentTo: string;
  code: string;
  deleted: string;
  failed: string;
  /** `<gatehouse-organisation>`: a manager's seats, and a reader accepting an invitation (docs/organisations.md). */
  organisation: OrganisationMessages;
}

export interface OrganisationMessages {
  heading: string;
  signedOut: string;
  /** A reader who manages no organisation (and has no invitation on the page). */
  none: string;
  /** `{used}` and `{seats}` are counts. */
  seats: string;
  /** `{used}` is a count. */
  unlimited: string;
  members: string;
  noMembers: string;
  invited: string;
  remove: string;
  invite: string;
  inviteEmail: string;
  /** `{email}` is the address. */
  invitationSent: string;
  /** `{email}` is the member's address. */
  removed: string;
  /** `{organisation}` is its name. */
  joined: string;
  joinSignIn: string;
  joinInvalid: string;
  full: string;
}

/** English, built into account.js; the other languages' tables travel in the elements' message tables (`account`), fetched with them. */
export const ACCOUNT_MESSAGES_EN: AccountMessages = {
  heading: 'Your account',
  signedOut: 'Sign in to see your plan, change your details or sign out of other devices.',
  signIn: 'Sign in',
  createAccount: 'Create account',
  account: 'Account',
  name: 'Name',
  email: 'Email',
  password: 'Password',
  edit: 'Edit details',
  save: 'Save',
  cancel: 'Cancel',
  close: 'Close',
  working: 'Working…',
  saved: 'Your details are saved.',
  verified: 'Email verified',
  unverified: 'Email not verified yet',
  verifySent: 'We sent a link to {email}. Open it to confirm the address.',
  resend: 'Send the link again',
  plan: 'Your plan',
  noPlan: 'You have no subscription.',
  status: { active: 'Active', trialing: 'Free trial', past_due: 'Payment due', cancelled: 'Ended' },
  interval: { month: 'a month', year: 'a year', lifetime: 'once' },
  renews: 'Renews on {date}',
  ends: 'Ends on {date}',
  trialEnds: 'Free trial until {date}',
  purchases: 'Passes and articles',
  passUntil: 'until {date}',
  manageBilling: 'Manage billing',
  paymentFailed: 'Your last payment did not go through. Update your payment method to keep reading.',
  updatePayment: 'Update payment method',
  cancelPlan: 'Cancel subscription',
  cancelHeading: 'Cancel your subscription?',
  cancelDescription: 'You keep reading until {date}. Nothing more will be charged.',
  reasonLabel: 'Why are you leaving?',
  reasons: {
    too_expensive: 'It costs too much',
    unused: 'I don’t read it enough',
    switched_service: 'I found another source',
    missing_features: 'Something I need is missing',
    low_quality: 'The content isn’t good enough',
    too_complex: 'It’s too hard to use',
    customer_service: 'I had a bad support experience',
    other: 'Another reason',
  },
  confirmCancel: 'Cancel subscription',
  keepPlan: 'Keep my subscription',
  saveDiscount: 'Stay and get {off} off: {name}',
  savePause: 'Pause for {months} months instead: nothing is charged meanwhile.',
  savePlan: 'Switch to {plan} instead, from your next renewal.',
  acceptSave: 'Accept the offer',
  saveAccepted: 'Thank you for staying!',
  changePlan: 'Change plan',
  choosePlan: 'Your new plan',
  previewNow: 'You pay {amount} now, then {next} from {date}.',
  previewLater: 'From {date}, you pay {next}.',
  confirmChange: 'Confirm the change',
  planChanged: 'Your plan changes on {date}.',
  pause: 'Pause',
  pauseHeading: 'Pause your subscription',
  pauseFor: 'For how long?',
  months: ['{n} month', '{n} months'],
  confirmPause: 'Pause subscription',
  pausedUntil: 'Paused until {date}',
  resume: 'Resume now',
  resumed: 'Your subscription runs again.',
  signOut: 'Sign out',
  signOutEverywhere: 'Sign out of all devices',
  signedOutEverywhere: 'You are signed out on all your devices.',
  yourData: 'Your data',
  download: 'Download my data',
  downloaded: 'Your data is downloaded.',
  deleteAccount: 'Delete my account',
  deleteHeading: 'Delete your account?',
  deleteDescription: 'This removes your account and what we hold about you for good. Enter your password to confirm.',
  confirmDelete: 'Delete for good',
  useCode: 'Email me a code instead',
  codeSentTo: 'We sent a 6-digit code to {email}. Enter it to confirm.',
  code: '6-digit code',
  deleted: 'Your account is deleted.',
  failed: 'That did not work. Please try again.',
  organisation: {
    heading: 'Your organisation',
    signedOut: "Sign in to manage your organisation's seats, or to accept an invitation.",
    none: 'You do not manage an organisation.',
    seats: '{used} of {seats} seats used',
    unlimited: '{used} seats used',
    members: 'Members',
    noMembers: 'No one holds a seat yet.',
    invited: 'invited',
    remove: 'Remove',
    invite: 'Invite',
    inviteEmail: 'Email address to invite',
    invitationSent: 'Invitation sent to {email}.',
    removed: '{email} no longer holds a seat.',
    joined: 'Welcome: you now read with a seat of {organisation}.',
    joinSignIn: 'Sign in or create an account with the invited address to accept your invitation.',
    joinInvalid: 'This invitation cannot be used any more: ask for a new one.',
    full: 'Every seat is taken: a manager can free one.',
  },
};
