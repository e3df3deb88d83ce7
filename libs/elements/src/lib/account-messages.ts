import type { CancellationReason, SubscriptionStatus } from '@gatehouse/contracts';

/*
 * What `<gatehouse-account>` and `<gatehouse-account-button>` say, one table per locale, picked as
 * the other elements pick theirs: `lang` on the element or an ancestor, by its primary subtag;
 * English otherwise. A few words the other elements also show (sign in, create account, name,
 * email, password, close) are repeated here so that this table stands on its own in account.js.
 */
export interface AccountMessages {
  dir: 'ltr' | 'rtl';
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

const en: AccountMessages = {
  dir: 'ltr',
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
  failed: 'That did not work. Please try again.',  organisation: {
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

const de: AccountMessages = {
  dir: 'ltr',
  heading: 'Ihr Konto',
  signedOut: 'Melden Sie sich an, um Ihr Abo zu sehen, Ihre Angaben zu ändern oder andere Geräte abzumelden.',
  signIn: 'Anmelden',
  createAccount: 'Konto erstellen',
  account: 'Konto',
  name: 'Name',
  email: 'E-Mail',
  password: 'Passwort',
  edit: 'Angaben ändern',
  save: 'Speichern',
  cancel: 'Abbrechen',
  close: 'Schließen',
  working: 'Einen Moment…',
  saved: 'Ihre Angaben sind gespeichert.',
  verified: 'E-Mail bestätigt',
  unverified: 'E-Mail noch nicht bestätigt',
  verifySent: 'Wir haben einen Link an {email} geschickt. Öffnen Sie ihn, um die Adresse zu bestätigen.',
  resend: 'Link erneut senden',
  plan: 'Ihr Abo',
  noPlan: 'Sie haben kein Abo.',
  status: { active: 'Aktiv', trialing: 'Gratis-Testphase', past_due: 'Zahlung offen', cancelled: 'Beendet' },
  interval: { month: 'im Monat', year: 'im Jahr', lifetime: 'einmalig' },
  renews: 'Verlängert sich am {date}',
  ends: 'Endet am {date}',
  trialEnds: 'Gratis bis {date}',
  manageBilling: 'Zahlung verwalten',
  paymentFailed: 'Ihre letzte Zahlung ist fehlgeschlagen. Ändern Sie Ihre Zahlungsmethode, um weiterzulesen.',
  updatePayment: 'Zahlungsmethode ändern',
  cancelPlan: 'Abo kündigen',
  cancelHeading: 'Abo kündigen?',
  cancelDescription: 'Sie lesen weiter bis zum {date}. Danach wird nichts mehr berechnet.',
  reasonLabel: 'Warum kündigen Sie?',
  reasons: {
    too_expensive: 'Es ist mir zu teuer',
    unused: 'Ich lese zu selten',
    switched_service: 'Ich lese jetzt woanders',
    missing_features: 'Mir fehlt etwas',
    low_quality: 'Die Inhalte überzeugen mich nicht',
    too_complex: 'Es ist zu kompliziert',
    customer_service: 'Ich war mit dem Kundenservice unzufrieden',
    other: 'Ein anderer Grund',
  },
  confirmCancel: 'Abo kündigen',
  keepPlan: 'Abo behalten',
  signOut: 'Abmelden',
  signOutEverywhere: 'Auf allen Geräten abmelden',
  signedOutEverywhere: 'Sie sind auf allen Geräten abgemeldet.',
  yourData: 'Ihre Daten',
  download: 'Meine Daten herunterladen',
  downloaded: 'Ihre Daten sind heruntergeladen.',
  deleteAccount: 'Mein Konto löschen',
  deleteHeading: 'Konto löschen?',
  deleteDescription: 'Damit löschen wir Ihr Konto und alles, was wir über Sie speichern, endgültig. Geben Sie zur Bestätigung Ihr Passwort ein.',
  confirmDelete: 'Endgültig löschen',
  useCode: 'Stattdessen einen Code per E-Mail senden',
  codeSentTo: 'Wir haben einen 6-stelligen Code an {email} gesendet. Geben Sie ihn zur Bestätigung ein.',
  code: '6-stelliger Code',
  deleted: 'Ihr Konto ist gelöscht.',
  failed: 'Das hat nicht geklappt. Bitte versuchen Sie es noch einmal.',  organisation: {
    heading: 'Ihre Organisation',
    signedOut: 'Melden Sie sich an, um die Plätze Ihrer Organisation zu verwalten oder eine Einladung anzunehmen.',
    none: 'Sie verwalten keine Organisation.',
    seats: '{used} von {seats} Plätzen belegt',
    unlimited: '{used} Plätze belegt',
    members: 'Mitglieder',
    noMembers: 'Noch belegt niemand einen Platz.',
    invited: 'eingeladen',
    remove: 'Entfernen',
    invite: 'Einladen',
    inviteEmail: 'E-Mail-Adresse zum Einladen',
    invitationSent: 'Einladung an {email} gesendet.',
    removed: '{email} hat keinen Platz mehr.',
    joined: 'Willkommen: Sie lesen jetzt mit einem Platz von {organisation}.',
    joinSignIn: 'Melden Sie sich mit der eingeladenen Adresse an oder erstellen Sie ein Konto, um die Einladung anzunehmen.',
    joinInvalid: 'Diese Einladung ist nicht mehr gültig: Bitten Sie um eine neue.',
    full: 'Alle Plätze sind belegt: Eine Verwalterin oder ein Verwalter kann einen freigeben.',
  },
};

const fr: AccountMessages = {
  dir: 'ltr',
  heading: 'Votre compte',
  signedOut: 'Connectez-vous pour voir votre abonnement, modifier vos informations ou vous déconnecter de vos autres appareils.',
  signIn: 'Se connecter',
  createAccount: 'Créer un compte',
  account: 'Compte',
  name: 'Nom',
  email: 'E-mail',
  password: 'Mot de passe',
  edit: 'Modifier mes informations',
  save: 'Enregistrer',
  cancel: 'Annuler',
  close: 'Fermer',
  working: 'Un instant…',
  saved: 'Vos informations sont enregistrées.',
  verified: 'E-mail confirmé',
  unverified: 'E-mail pas encore confirmé',
  verifySent: 'Nous avons envoyé un lien à {email}. Ouvrez-le pour confirmer l’adresse.',
  resend: 'Renvoyer le lien',
  plan: 'Votre abonnement',
  noPlan: 'Vous n’avez pas d’abonnement.',
  status: { active: 'Actif', trialing: 'Essai gratuit', past_due: 'Paiement en attente', cancelled: 'Terminé' },
  interval: { month: 'par mois', year: 'par an', lifetime: 'une fois' },
  renews: 'Renouvelé le {date}',
  ends: 'Se termine le {date}',
  trialEnds: 'Essai gratuit jusqu’au {date}',
  manageBilling: 'Gérer le paiement',
  paymentFailed: 'Votre dernier paiement n’a pas abouti. Mettez à jour votre moyen de paiement pour continuer à lire.',
  updatePayment: 'Mettre à jour le moyen de paiement',
  cancelPlan: 'Résilier l’abonnement',
  cancelHeading: 'Résilier votre abonnement ?',
  cancelDescription: 'Vous continuez à lire jusqu’au {date}. Plus rien ne sera prélevé.',
  reasonLabel: 'Pourquoi partez-vous ?',
  reasons: {
    too_expensive: 'C’est trop cher',
    unused: 'Je ne lis pas assez',
    switched_service: 'J’ai trouvé une autre source',
    missing_features: 'Il me manque quelque chose',
    low_quality: 'Le contenu ne me convient pas',
    too_complex: 'C’est trop compliqué',
    customer_service: 'Le service client m’a déçu',
    other: 'Une autre raison',
  },
  confirmCancel: 'Résilier l’abonnement',
  keepPlan: 'Garder mon abonnement',
  signOut: 'Se déconnecter',
  signOutEverywhere: 'Se déconnecter de tous les appareils',
  signedOutEverywhere: 'Vous êtes déconnecté de tous vos appareils.',
  yourData: 'Vos données',
  download: 'Télécharger mes données',
  downloaded: 'Vos données sont téléchargées.',
  deleteAccount: 'Supprimer mon compte',
  deleteHeading: 'Supprimer votre compte ?',
  deleteDescription: 'Votre compte et tout ce que nous conservons sur vous seront supprimés définitivement. Saisissez votre mot de passe pour confirmer.',
  confirmDelete: 'Supprimer définitivement',
  useCode: 'Recevoir plutôt un code par e-mail',
  codeSentTo: 'Nous avons envoyé un code à 6 chiffres à {email}. Saisissez-le pour confirmer.',
  code: 'Code à 6 chiffres',
  deleted: 'Votre compte est supprimé.',
  failed: 'Cela n’a pas fonctionné. Veuillez réessayer.',  organisation: {
    heading: 'Votre organisation',
    signedOut: 'Connectez-vous pour gérer les places de votre organisation ou accepter une invitation.',
    none: 'Vous ne gérez aucune organisation.',
    seats: '{used} places occupées sur {seats}',
    unlimited: '{used} places occupées',
    members: 'Membres',
    noMembers: 'Personne n’occupe encore de place.',
    invited: 'invité',
    remove: 'Retirer',
    invite: 'Inviter',
    inviteEmail: 'Adresse e-mail à inviter',
    invitationSent: 'Invitation envoyée à {email}.',
    removed: '{email} n’a plus de place.',
    joined: 'Bienvenue : vous lisez désormais avec une place de {organisation}.',
    joinSignIn: 'Connectez-vous ou créez un compte avec l’adresse invitée pour accepter votre invitation.',
    joinInvalid: 'Cette invitation n’est plus valable : demandez-en une nouvelle.',
    full: 'Toutes les places sont prises : un gestionnaire peut en libérer une.',
  },
};

const es: AccountMessages = {
  dir: 'ltr',
  heading: 'Tu cuenta',
  signedOut: 'Inicia sesión para ver tu suscripción, cambiar tus datos o cerrar la sesión en otros dispositivos.',
  signIn: 'Iniciar sesión',
  createAccount: 'Crear cuenta',
  account: 'Cuenta',
  name: 'Nombre',
  email: 'Correo electrónico',
  password: 'Contraseña',
  edit: 'Cambiar mis datos',
  save: 'Guardar',
  cancel: 'Cancelar',
  close: 'Cerrar',
  working: 'Un momento…',
  saved: 'Tus datos están guardados.',
  verified: 'Correo confirmado',
  unverified: 'Correo aún sin confirmar',
  verifySent: 'Hemos enviado un enlace a {email}. Ábrelo para confirmar la dirección.',
  resend: 'Enviar el enlace de nuevo',
  plan: 'Tu suscripción',
  noPlan: 'No tienes ninguna suscripción.',
  status: { active: 'Activa', trialing: 'Prueba gratuita', past_due: 'Pago pendiente', cancelled: 'Terminada' },
  interval: { month: 'al mes', year: 'al año', lifetime: 'una vez' },
  renews: 'Se renueva el {date}',
  ends: 'Termina el {date}',
  trialEnds: 'Prueba gratuita hasta el {date}',
  manageBilling: 'Gestionar el pago',
  paymentFailed: 'Tu último pago no se ha podido cobrar. Actualiza tu método de pago para seguir leyendo.',
  updatePayment: 'Actualizar el método de pago',
  cancelPlan: 'Cancelar la suscripción',
  cancelHeading: '¿Cancelar tu suscripción?',
  cancelDescription: 'Sigues leyendo hasta el {date}. No se cobrará nada más.',
  reasonLabel: '¿Por qué te vas?',
  reasons: {
    too_expensive: 'Es demasiado caro',
    unused: 'No leo lo suficiente',
    switched_service: 'He encontrado otra fuente',
    missing_features: 'Me falta algo',
    low_quality: 'El contenido no me convence',
    too_complex: 'Es demasiado complicado',
    customer_service: 'Tuve una mala experiencia con el soporte',
    other: 'Otro motivo',
  },
  confirmCancel: 'Cancelar la suscripción',
  keepPlan: 'Mantener mi suscripción',
  signOut: 'Cerrar sesión',
  signOutEverywhere: 'Cerrar sesión en todos los dispositivos',
  signedOutEverywhere: 'Has cerrado la sesión en todos tus dispositivos.',
  yourData: 'Tus datos',
  download: 'Descargar mis datos',
  downloaded: 'Tus datos se han descargado.',
  deleteAccount: 'Eliminar mi cuenta',
  deleteHeading: '¿Eliminar tu cuenta?',
  deleteDescription: 'Se eliminarán para siempre tu cuenta y todo lo que guardamos sobre ti. Escribe tu contraseña para confirmar.',
  confirmDelete: 'Eliminar para siempre',
  useCode: 'Enviarme un código por correo',
  codeSentTo: 'Hemos enviado un código de 6 dígitos a {email}. Escríbelo para confirmar.',
  code: 'Código de 6 dígitos',
  deleted: 'Tu cuenta está eliminada.',
  failed: 'No ha funcionado. Inténtalo de nuevo.',  organisation: {
    heading: 'Tu organización',
    signedOut: 'Inicia sesión para gestionar las plazas de tu organización o aceptar una invitación.',
    none: 'No gestionas ninguna organización.',
    seats: '{used} de {seats} plazas ocupadas',
    unlimited: '{used} plazas ocupadas',
    members: 'Miembros',
    noMembers: 'Nadie ocupa una plaza todavía.',
    invited: 'invitado',
    remove: 'Quitar',
    invite: 'Invitar',
    inviteEmail: 'Correo electrónico para invitar',
    invitationSent: 'Invitación enviada a {email}.',
    removed: '{email} ya no tiene plaza.',
    joined: 'Bienvenido: ahora lees con una plaza de {organisation}.',
    joinSignIn: 'Inicia sesión o crea una cuenta con la dirección invitada para aceptar tu invitación.',
    joinInvalid: 'Esta invitación ya no se puede usar: pide una nueva.',
    full: 'Todas las plazas están ocupadas: un gestor puede liberar una.',
  },
};

const ar: AccountMessages = {
  dir: 'rtl',
  heading: 'حسابك',
  signedOut: 'سجّل الدخول لترى اشتراكك أو تغيّر بياناتك أو تسجّل الخروج من أجهزتك الأخرى.',
  signIn: 'تسجيل الدخول',
  createAccount: 'إنشاء حساب',
  account: 'الحساب',
  name: 'الاسم',
  email: 'البريد الإلكتروني',
  password: 'كلمة المرور',
  edit: 'تعديل بياناتي',
  save: 'حفظ',
  cancel: 'إلغاء',
  close: 'إغلاق',
  working: 'لحظة…',
  saved: 'تم حفظ بياناتك.',
  verified: 'البريد مؤكَّد',
  unverified: 'البريد غير مؤكَّد بعد',
  verifySent: 'أرسلنا رابطًا إلى {email}. افتحه لتأكيد العنوان.',
  resend: 'أعد إرسال الرابط',
  plan: 'اشتراكك',
  noPlan: 'ليس لديك اشتراك.',
  status: { active: 'نشط', trialing: 'فترة تجربة مجانية', past_due: 'دفعة مستحقة', cancelled: 'منتهٍ' },
  interval: { month: 'شهريًا', year: 'سنويًا', lifetime: 'مرة واحدة' },
  renews: 'يتجدد في {date}',
  ends: 'ينتهي في {date}',
  trialEnds: 'تجربة مجانية حتى {date}',
  manageBilling: 'إدارة الدفع',
  paymentFailed: 'لم تنجح عملية الدفع الأخيرة. حدّث طريقة الدفع لمواصلة القراءة.',
  updatePayment: 'تحديث طريقة الدفع',
  cancelPlan: 'إلغاء الاشتراك',
  cancelHeading: 'هل تريد إلغاء اشتراكك؟',
  cancelDescription: 'تواصل القراءة حتى {date}. لن يُخصم منك شيء بعد ذلك.',
  reasonLabel: 'لماذا تغادر؟',
  reasons: {
    too_expensive: 'السعر مرتفع',
    unused: 'لا أقرأ بما يكفي',
    switched_service: 'وجدت مصدرًا آخر',
    missing_features: 'ينقصني شيء أحتاجه',
    low_quality: 'المحتوى لا يناسبني',
    too_complex: 'الاستخدام صعب',
    customer_service: 'لم تعجبني خدمة العملاء',
    other: 'سبب آخر',
  },
  confirmCancel: 'إلغاء الاشتراك',
  keepPlan: 'أبقِ اشتراكي',
  signOut: 'تسجيل الخروج',
  signOutEverywhere: 'تسجيل الخروج من كل الأجهزة',
  signedOutEverywhere: 'تم تسجيل خروجك من كل أجهزتك.',
  yourData: 'بياناتك',
  download: 'تنزيل بياناتي',
  downloaded: 'تم تنزيل بياناتك.',
  deleteAccount: 'حذف حسابي',
  deleteHeading: 'هل تريد حذف حسابك؟',
  deleteDescription: 'سيُحذف حسابك وكل ما نحتفظ به عنك نهائيًا. أدخل كلمة المرور للتأكيد.',
  confirmDelete: 'احذف نهائيًا',
  useCode: 'أرسل لي رمزًا بالبريد بدلًا من ذلك',
  codeSentTo: 'أرسلنا رمزًا من 6 أرقام إلى {email}. أدخله للتأكيد.',
  code: 'رمز من 6 أرقام',
  deleted: 'تم حذف حسابك.',
  failed: 'لم ينجح ذلك. حاول مرة أخرى.',  organisation: {
    heading: 'مؤسستك',
    signedOut: 'سجّل الدخول لإدارة مقاعد مؤسستك أو لقبول دعوة.',
    none: 'أنت لا تدير أي مؤسسة.',
    seats: '{used} من {seats} مقاعد مستخدمة',
    unlimited: '{used} مقاعد مستخدمة',
    members: 'الأعضاء',
    noMembers: 'لا أحد يشغل مقعدًا بعد.',
    invited: 'مدعو',
    remove: 'إزالة',
    invite: 'دعوة',
    inviteEmail: 'البريد الإلكتروني للدعوة',
    invitationSent: 'أُرسلت الدعوة إلى {email}.',
    removed: 'لم يعد لدى {email} مقعد.',
    joined: 'مرحبًا: أنت تقرأ الآن بمقعد من {organisation}.',
    joinSignIn: 'سجّل الدخول أو أنشئ حسابًا بالعنوان المدعو لقبول دعوتك.',
    joinInvalid: 'لم يعد من الممكن استخدام هذه الدعوة: اطلب دعوة جديدة.',
    full: 'جميع المقاعد مشغولة: يمكن للمدير تحرير مقعد.',
  },
};

export const ACCOUNT_MESSAGES: Record<string, AccountMessages> = { en, de, fr, es, ar };

/** The table for a language tag (`de-AT` → German); English when there is none. */
export function accountMessagesFor(lang: string | null | undefined): AccountMessages {
  const primary = (lang ?? '').toLowerCase().split('-')[0];
  return ACCOUNT_MESSAGES[primary] ?? en;
}
