import type { EmailCopy, EmailLanguage, TemplateKind } from '@gatehouse/contracts';

/** The copy every publication starts with; staff replace it per kind and language (EmailTemplateRequests). */
export const DEFAULT_COPY: Record<TemplateKind, Record<EmailLanguage, EmailCopy>> = {
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
  payment_failed: {
    en: {
      subject: 'Your {{publication}} payment did not go through',
      body: 'Hello {{name}},\n\nwe could not collect the payment for your {{publication}} subscription. Nothing is lost: we will try again in a few days, and you keep reading meanwhile.\n\nTo make sure the next attempt succeeds, check or update your payment method with the button below.',
      action: 'Update my payment method',
    },
    de: {
      subject: 'Ihre Zahlung für {{publication}} ist fehlgeschlagen',
      body: 'Hallo {{name}},\n\nwir konnten die Zahlung für Ihr Abonnement bei {{publication}} nicht einziehen. Es ist nichts verloren: Wir versuchen es in einigen Tagen erneut, und Sie lesen weiter.\n\nDamit der nächste Versuch gelingt, prüfen oder ändern Sie Ihre Zahlungsmethode mit der Schaltfläche unten.',
      action: 'Zahlungsmethode ändern',
    },
  },
  payment_retry: {
    en: {
      subject: 'Your {{publication}} payment failed again',
      body: 'Hello {{name}},\n\nthe payment for your {{publication}} subscription failed again. We will try once more; if that fails too, your subscription ends.\n\nPlease update your payment method now with the button below.',
      action: 'Update my payment method',
    },
    de: {
      subject: 'Ihre Zahlung für {{publication}} ist erneut fehlgeschlagen',
      body: 'Hallo {{name}},\n\ndie Zahlung für Ihr Abonnement bei {{publication}} ist erneut fehlgeschlagen. Wir versuchen es noch einmal; schlägt auch das fehl, endet Ihr Abonnement.\n\nBitte ändern Sie jetzt Ihre Zahlungsmethode mit der Schaltfläche unten.',
      action: 'Zahlungsmethode ändern',
    },
  },
  payment_final: {
    en: {
      subject: 'Last notice: your {{publication}} subscription is unpaid',
      body: 'Hello {{name}},\n\nwe tried several times and could not collect the payment for your {{publication}} subscription, and we will not try again. Your access ends soon.\n\nTo keep reading, update your payment method and pay the open invoice with the button below.',
      action: 'Pay and keep reading',
    },
    de: {
      subject: 'Letzte Erinnerung: Ihr Abonnement bei {{publication}} ist unbezahlt',
      body: 'Hallo {{name}},\n\nwir haben mehrmals versucht, die Zahlung für Ihr Abonnement bei {{publication}} einzuziehen, und versuchen es nicht erneut. Ihr Zugang endet bald.\n\nUm weiterzulesen, ändern Sie Ihre Zahlungsmethode und bezahlen Sie die offene Rechnung mit der Schaltfläche unten.',
      action: 'Bezahlen und weiterlesen',
    },
  },
  card_expiring: {
    en: {
      subject: 'Your card for {{publication}} expires soon',
      body: 'Hello {{name}},\n\nthe card your {{publication}} subscription is paid with expires at the end of this month. Add a new card with the button below so that your subscription goes on without a break.',
      action: 'Update my card',
    },
    de: {
      subject: 'Ihre Karte für {{publication}} läuft bald ab',
      body: 'Hallo {{name}},\n\ndie Karte, mit der Sie Ihr Abonnement bei {{publication}} bezahlen, läuft Ende dieses Monats ab. Hinterlegen Sie mit der Schaltfläche unten eine neue Karte, damit Ihr Abonnement ohne Unterbrechung weiterläuft.',
      action: 'Karte ändern',
    },
  },
  win_back: {
    en: {
      subject: 'Come back to {{publication}}',
      body: 'Hello {{name}},\n\nwe miss you at {{publication}}. Come back with the code {{code}} at checkout: it gives you a special price.',
      action: 'Come back to {{publication}}',
    },
    de: {
      subject: 'Kommen Sie zurück zu {{publication}}',
      body: 'Hallo {{name}},\n\nwir vermissen Sie bei {{publication}}. Kommen Sie mit dem Code {{code}} beim Abschluss zurück: Er gibt Ihnen einen besonderen Preis.',
      action: 'Zurück zu {{publication}}',
    },
  },
  gift_received: {
    en: {
      subject: '{{sender}} gave you {{months}} months of {{product}}',
      body: 'Hello {{name}},\n\n{{sender}} gave you {{months}} months of {{product}} from {{publication}}.\n\n{{message}}\n\nRedeem your gift with the button below: sign in or create your account, and start reading. Nothing renews and nothing is charged to you.',
      action: 'Redeem my gift',
    },
    de: {
      subject: '{{sender}} schenkt Ihnen {{months}} Monate {{product}}',
      body: 'Hallo {{name}},\n\n{{sender}} schenkt Ihnen {{months}} Monate {{product}} von {{publication}}.\n\n{{message}}\n\nLösen Sie Ihr Geschenk mit der Schaltfläche unten ein: Melden Sie sich an oder legen Sie Ihr Konto an, und lesen Sie los. Nichts verlängert sich, und Ihnen wird nichts berechnet.',
      action: 'Geschenk einlösen',
    },
  },
  gift_ending: {
    en: {
      subject: 'Your {{product}} gift ends on {{date}}',
      body: 'Hello {{name}},\n\nthe {{months}} months of {{product}} you were given end on {{date}}. It does not renew, and nothing is charged.\n\nTo keep reading {{publication}}, subscribe with the button below.',
      action: 'Keep reading',
    },
    de: {
      subject: 'Ihr Geschenk {{product}} endet am {{date}}',
      body: 'Hallo {{name}},\n\ndie geschenkten {{months}} Monate {{product}} enden am {{date}}. Das Geschenk verlängert sich nicht, und es wird nichts berechnet.\n\nUm {{publication}} weiter zu lesen, abonnieren Sie mit der Schaltfläche unten.',
      action: 'Weiterlesen',
    },
  },
};

/**
 * The staff invitation, in English (staff have no language setting) and in the publication's
 * branding; its copy is not edited per publication: it comes from Gatehouse, not from the site.
 */
/**
 * An invitation to a seat in an organisation (docs/organisations.md), in English: its copy is not
 * edited per publication, as the staff invitation's is not.
 */
export const ORGANISATION_INVITATION_COPY: EmailCopy = {
  subject: '{{organisation}} gives you access to {{publication}}',
  body: 'Hello,\n\n{{organisation}} invites you to read {{publication}} on one of its seats. Accept with the button below and sign in or create your account with this email address: the link works once, for 14 days.\n\nIf you did not expect this invitation, ignore this email.',
  action: 'Accept the invitation',
};

export const STAFF_INVITATION_COPY: EmailCopy = {
  subject: 'You are invited to {{publication}} on Gatehouse',
  body: 'Hello,\n\nyou are invited to join the team of {{publication}} in its Gatehouse dashboard. Accept with the button below: the link works once, for 7 days.\n\nIf you did not expect this invitation, ignore this email.',
  action: 'Accept the invitation',
};
