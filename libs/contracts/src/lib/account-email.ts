import type { CustomerAuthResult, CustomerProfile } from './identity';
import type { Page, PageRequest } from './pagination';
import { requestPattern } from './patterns';

/*
 * Account email, owned by identity (docs/email.md): password reset, email verification, one-time
 * sign-in codes, the messages they send and the local mailbox that keeps them when no SMTP
 * server is configured.
 */

/** The languages account email is written in; a reader's locale picks one, English otherwise. */
export const EMAIL_LANGUAGES = ['en', 'de'] as const;
export type EmailLanguage = (typeof EMAIL_LANGUAGES)[number];

/** Every account email identity sends to readers. */
export const EMAIL_KINDS = ['password_reset', 'email_verification', 'login_code'] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/**
 * Billing's email to subscribers: billing asks identity to send them. Payment email
 * (docs/billing.md#failed-payment-recovery), each with a link to the processor's billing portal:
 * `payment_failed` after the first failed attempt of an invoice, `payment_retry` after a later one
 * with a retry still ahead, `payment_final` when no retry is left, `card_expiring` when the card on
 * file is about to expire. `win_back` (docs/billing.md#win-back): an offer code to a former
 * subscriber, with a link to the publication's site carrying it.
 */
export const PAYMENT_EMAIL_KINDS = ['payment_failed', 'payment_retry', 'payment_final', 'card_expiring', 'win_back'] as const;
export type PaymentEmailKind = (typeof PAYMENT_EMAIL_KINDS)[number];

/**
 * Gift email (docs/billing.md#gift-subscriptions): `gift_received` to the recipient on the buyer's
 * date, its link carrying the code to redeem; `gift_ending` to the reader before the subscription
 * the gift made ends, with a link to continue.
 */
export const GIFT_EMAIL_KINDS = ['gift_received', 'gift_ending'] as const;
export type GiftEmailKind = (typeof GIFT_EMAIL_KINDS)[number];

/** What a gift email says besides its recipient's name: `{{sender}}`, `{{product}}`, `{{months}}`, `{{date}}` (the end) and `{{message}}` in its copy. */
export interface GiftEmailValues {
  sender?: string;
  product: string;
  months: string;
  date?: string;
  message?: string;
}

/** Every message whose copy staff edit per kind and language. */
export const TEMPLATE_KINDS = [...EMAIL_KINDS, ...PAYMENT_EMAIL_KINDS, ...GIFT_EMAIL_KINDS] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** Every message identity sends: account and payment email to readers, invitations to a publication's staff and to an organisation's seats. */
export const MESSAGE_KINDS = [...TEMPLATE_KINDS, 'staff_invitation', 'organisation_invitation'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** How long a staff invitation, and the link its email carries, stays valid. */
export const STAFF_INVITATION_TTL_MINUTES = 7 * 24 * 60;

/** How long each one-time credential stays valid. */
export const PASSWORD_RESET_TTL_MINUTES = 30;
export const EMAIL_VERIFICATION_TTL_MINUTES = 7 * 24 * 60;
export const LOGIN_CODE_TTL_MINUTES = 15;
/** Wrong codes a login code takes before it, and its link, stop working. */
export const LOGIN_CODE_MAX_ATTEMPTS = 5;

/**
 * The fragment parameter a link carries its token in, on a page of the publication's site: a
 * fragment never reaches a server, and only an explicit POST by the page (after the reader's click)
 * uses the token up, so mail filters that open links burn nothing.
 */
export const EMAIL_LINK_PARAMETERS: Record<EmailKind, string> = {
  password_reset: 'gatehouse-reset-password',
  email_verification: 'gatehouse-verify-email',
  login_code: 'gatehouse-login',
};

/** Where a message's link leads: a page of the publication's site (the gateway checks its host). */
export interface EmailLinkTarget {
  /** Absolute http(s) URL on one of the publication's domains; the publication's first domain when absent. */
  returnUrl?: string;
}

/** Answered, whether or not the email belongs to a customer, so that no one learns which do. */
export interface EmailRequestAccepted {
  accepted: true;
}

export const AccountEmailRequests = {
  /** Sends a reset link if the email is a customer's; 429 after 5 requests for one email in 15 minutes. */
  RequestPasswordReset: requestPattern<{ publicationId: string; email: string } & EmailLinkTarget, EmailRequestAccepted>(
    'identity.password-reset.request',
  ),
  /** 401 email_token_invalid for an unknown, expired or used token. Revokes every refresh-token family. */
  ConfirmPasswordReset: requestPattern<{ publicationId: string; token: string; password: string }, CustomerAuthResult>(
    'identity.password-reset.confirm',
  ),
  /** Sends a new verification link to the customer of the access token. */
  RequestEmailVerification: requestPattern<{ publicationId: string; customerId: string } & EmailLinkTarget, EmailRequestAccepted>(
    'identity.email-verification.request',
  ),
  /** 401 email_token_invalid for an unknown, expired or used token. */
  VerifyEmail: requestPattern<{ publicationId: string; token: string }, CustomerProfile>('identity.email-verification.verify'),
  /** Sends a 6-digit code and a link if the email is a customer's who can sign in. */
  RequestLoginCode: requestPattern<{ publicationId: string; email: string } & EmailLinkTarget, EmailRequestAccepted>(
    'identity.login-code.request',
  ),
  /** 401 code_invalid for a wrong, expired or used-up code (LOGIN_CODE_MAX_ATTEMPTS wrong ones use it up). */
  VerifyLoginCode: requestPattern<{ publicationId: string; email: string; code: string }, CustomerAuthResult>('identity.login-code.verify'),
  /** The link of a login-code message: 401 email_token_invalid for an unknown, expired or used token. */
  ConfirmLoginLink: requestPattern<{ publicationId: string; token: string }, CustomerAuthResult>('identity.login-code.confirm-link'),
} as const;

export type EmailMessageStatus = 'pending' | 'sending' | 'sent' | 'failed';

/** One message as staff see it in the mailbox list. */
export interface EmailMessageSummary {
  id: string;
  kind: MessageKind;
  to: string;
  language: EmailLanguage;
  status: EmailMessageStatus;
  /** `mailbox` when kept here (no SMTP_URL), `smtp` when handed to the SMTP server; null until sent. */
  delivery: 'smtp' | 'mailbox' | null;
  attempts: number;
  /** Why the last attempt failed, when it did. */
  lastError: string | null;
  subject: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** A message with its content: kept only for messages of the local mailbox. */
export interface EmailMessageView extends EmailMessageSummary {
  text: string | null;
  html: string | null;
}

/** The copy staff can edit, per kind and language; `{{name}}`, `{{publication}}`, `{{code}}` and `{{minutes}}` are filled in. */
export interface EmailCopy {
  subject: string;
  /** Paragraphs separated by blank lines, above the button. */
  body: string;
  /** The button's label. */
  action: string;
}

export interface EmailTemplateView extends EmailCopy {
  kind: TemplateKind;
  language: EmailLanguage;
  /** False while the built-in copy is used. */
  customized: boolean;
}

export const MailboxRequests = {
  /** The publication's messages, newest first. */
  List: requestPattern<{ publicationId: string } & PageRequest, Page<EmailMessageSummary>>('identity.mailbox.list'),
  /** 404 for a message of another publication. */
  Get: requestPattern<{ publicationId: string; messageId: string }, EmailMessageView>('identity.mailbox.get'),
} as const;

export const StaffEmailRequests = {
  /**
   * Queues a staff invitation's email in identity's durable email queue, in the publication's
   * branding; its button opens `acceptUrl#token=<token>`. The invitation's id is the message's, so
   * a retried request queues nothing twice.
   */
  SendInvitation: requestPattern<{ publicationId: string; invitationId: string; to: string; acceptUrl: string; token: string }, { queued: true }>(
    'identity.staff-email.invitation',
  ),
} as const;

export const OrganisationEmailRequests = {
  /**
   * Queues an organisation's invitation to a seat in identity's durable email queue, in the
   * publication's branding; its button opens `returnUrl` (a page of the publication's site, its
   * first domain otherwise) with `#gatehouse-join=<token>` (ORGANISATION_INVITATION_PARAMETER). The invitation's id is
   * the message's, so a retried request queues nothing twice.
   */
  SendInvitation: requestPattern<
    { publicationId: string; invitationId: string; to: string; organisationName: string; token: string; returnUrl: string | null },
    { queued: true }
  >('identity.organisation-email.invitation'),
} as const;

export const PaymentEmailRequests = {
  /**
   * Queues a payment email to a customer in identity's durable email queue, in the customer's
   * language and the publication's branding and copy; its button opens `link` (the processor's
   * billing portal, or for `win_back` the publication's site), and `code` (a win-back offer's) is
   * shown as `{{code}}`. `noticeId` is the message's id, so a repeated request queues nothing twice.
   * `queued: false` when the customer is not one of the publication's (erased, unknown).
   */
  SendPaymentNotice: requestPattern<
    { publicationId: string; customerId: string; noticeId: string; kind: PaymentEmailKind; link: string | null; code?: string },
    { queued: boolean }
  >('identity.payment-email.notice'),
} as const;

export const GiftEmailRequests = {
  /**
   * Queues a gift's email to its recipient (who may have no account yet), in the publication's
   * branding and copy; its button opens `redeemUrl` (a page of the publication, its first proven
   * domain when null or elsewhere) with the code in the fragment (GIFT_LINK_PARAMETER). `emailId`
   * is the message's id, so a repeated request queues nothing twice.
   */
  SendGift: requestPattern<
    { publicationId: string; emailId: string; to: string; recipientName: string; code: string; redeemUrl: string | null; values: GiftEmailValues },
    { queued: true }
  >('identity.gift-email.gift'),
  /** Queues the reminder to the reader whose gift subscription ends soon, its button opening `link`; `queued: false` for a customer not of the publication. */
  SendGiftReminder: requestPattern<
    { publicationId: string; emailId: string; customerId: string; link: string | null; values: GiftEmailValues },
    { queued: boolean }
  >('identity.gift-email.reminder'),
} as const;

export const EmailTemplateRequests = {
  /** Every kind in every language, as it is sent now. */
  List: requestPattern<{ publicationId: string }, EmailTemplateView[]>('identity.email-templates.list'),
  /** `copy: null` goes back to the built-in copy. */
  Put: requestPattern<{ publicationId: string; kind: TemplateKind; language: EmailLanguage; copy: EmailCopy | null }, EmailTemplateView>(
    'identity.email-templates.put',
  ),
} as const;
