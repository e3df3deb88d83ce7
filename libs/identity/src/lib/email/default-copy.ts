import type { EmailCopy, EmailKind, EmailLanguage } from '@gatehouse/contracts';

/** The copy every publication starts with; staff replace it per kind and language (EmailTemplateRequests). */
export const DEFAULT_COPY: Record<EmailKind, Record<EmailLanguage, EmailCopy>> = {
  password_reset: {
    en: {
      subject: 'Reset your {{publication}} password',
      body: 'Hello {{name}},\n\nsomeone asked to reset the password of your {{publication}} account. If it was you, choose a new password with the button below. The link works once, for {{minutes}} minutes.\n\nIf it was not you, ignore this email: your password stays as it is.',
      action: 'Choose a new password',
    },
    de: {
      subject: 'Ihr Passwort für {{publication}} zurücksetzen',
      body: 'Hallo {{name}},\n\njemand möchte das Passwort Ihres Kontos bei {{publication}} zurücksetzen. Wenn Sie das waren, wählen Sie mit der Schaltfläche unten ein neues Passwort. Der Link funktioniert einmal, {{minutes}} Minuten lang.\n\nWenn Sie das nicht waren, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.',
      action: 'Neues Passwort wählen',
    },
  },
  email_verification: {
    en: {
      subject: 'Confirm your email address for {{publication}}',
      body: 'Hello {{name}},\n\nwelcome to {{publication}}! Please confirm that this address is yours.',
      action: 'Confirm my email address',
    },
    de: {
      subject: 'Bestätigen Sie Ihre E-Mail-Adresse für {{publication}}',
      body: 'Hallo {{name}},\n\nwillkommen bei {{publication}}! Bitte bestätigen Sie, dass diese Adresse Ihnen gehört.',
      action: 'E-Mail-Adresse bestätigen',
    },
  },
  login_code: {
    en: {
      subject: 'Your {{publication}} sign-in code: {{code}}',
      body: 'Hello {{name}},\n\nyour code to sign in to {{publication}} is {{code}}. Enter it where you asked for it, or use the button below. It works once, for {{minutes}} minutes.\n\nIf you did not ask to sign in, ignore this email.',
      action: 'Sign me in',
    },
    de: {
      subject: 'Ihr Anmeldecode für {{publication}}: {{code}}',
      body: 'Hallo {{name}},\n\nIhr Code für die Anmeldung bei {{publication}} lautet {{code}}. Geben Sie ihn dort ein, wo Sie ihn angefordert haben, oder nutzen Sie die Schaltfläche unten. Er funktioniert einmal, {{minutes}} Minuten lang.\n\nWenn Sie sich nicht anmelden wollten, ignorieren Sie diese E-Mail.',
      action: 'Jetzt anmelden',
    },
  },
};

/**
 * The staff invitation, in English (staff have no language setting) and in the publication's
 * branding; its copy is not edited per publication: it comes from Gatehouse, not from the site.
 */
export const STAFF_INVITATION_COPY: EmailCopy = {
  subject: 'You are invited to {{publication}} on Gatehouse',
  body: 'Hello,\n\nyou are invited to join the team of {{publication}} in its Gatehouse dashboard. Accept with the button below: the link works once, for 7 days.\n\nIf you did not expect this invitation, ignore this email.',
  action: 'Accept the invitation',
};
