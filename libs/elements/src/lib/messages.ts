import type { PaywallType } from '@gatehouse/contracts';

/*
 * Every text the elements show that is not branding copy, one table per locale. The branding
 * copy fields fall back to the entries named after them. `lang` on the element or an ancestor
 * picks the table by its primary subtag; English otherwise.
 */

export interface Messages {
  dir: 'ltr' | 'rtl';
  authHeading: string;
  authDescription: string;
  authRegisterHeading: string;
  authRegisterDescription: string;
  paywallHeading: string;
  paywallDescription: string;
  paywallCtaText: string;
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
  interval: Record<'month' | 'year' | 'lifetime', string>;
  cta: Record<PaywallType, string>;
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
  required: string;
  invalidEmail: string;
  invalidValue: string;
  subscribed: string;
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
  interval: { month: 'per month', year: 'per year', lifetime: 'once' },
  cta: { hard: 'Subscribe', soft: 'Subscribe', metered: 'Subscribe', registration: 'Create a free account', newsletter: 'Sign up', data: 'Continue' },
  reason: {
    hard: 'This article is for subscribers.',
    soft: 'Support our journalism.',
    metered: 'You have read all your free articles for now.',
    registration: 'Create a free account to read this article.',
    newsletter: 'Sign up to our newsletter to read this article.',
    data: 'Tell us a little about yourself to read this article.',
  },
  authDialog: 'Sign in or create an account',
  paywallDialog: 'Subscription offer',
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
  required: 'Fill in this field.',
  invalidEmail: 'Enter a valid email address.',
  invalidValue: 'Enter a valid value.',
  subscribed: 'You are subscribed. Enjoy reading!',
};

const ar: Messages = {
  dir: 'rtl',
  authHeading: 'تسجيل الدخول',
  authDescription: 'مرحبًا بعودتك. سجّل الدخول لمواصلة القراءة.',
  authRegisterHeading: 'أنشئ حسابك',
  authRegisterDescription: 'يستغرق الأمر دقيقة واحدة، وهو مجاني.',
  paywallHeading: 'اشترك لمواصلة القراءة',
  paywallDescription: 'احصل على وصول غير محدود إلى كل المقالات.',
  paywallCtaText: 'اشترك',
  email: 'البريد الإلكتروني',
  password: 'كلمة المرور',
  name: 'الاسم',
  signIn: 'تسجيل الدخول',
  createAccount: 'إنشاء حساب',
  toRegister: 'جديد هنا؟ أنشئ حسابًا',
  toLogin: 'لديك حساب بالفعل؟ سجّل الدخول',
  haveAccount: 'مشترك بالفعل؟ سجّل الدخول',
  close: 'إغلاق',
  working: 'يرجى الانتظار…',
  failed: 'حدث خطأ ما. يرجى المحاولة مرة أخرى.',
  unreachable: 'تعذّر الوصول إلى الخدمة. يرجى المحاولة لاحقًا.',
  choosePlan: 'اختر خطة',
  noPlans: 'لا توجد خطة معروضة حاليًا.',
  interval: { month: 'شهريًا', year: 'سنويًا', lifetime: 'مرة واحدة' },
  cta: { hard: 'اشترك', soft: 'اشترك', metered: 'اشترك', registration: 'أنشئ حسابًا مجانيًا', newsletter: 'اشترك في النشرة', data: 'متابعة' },
  reason: {
    hard: 'هذا المقال مخصص للمشتركين.',
    soft: 'ادعم صحافتنا.',
    metered: 'لقد قرأت كل مقالاتك المجانية حاليًا.',
    registration: 'أنشئ حسابًا مجانيًا لقراءة هذا المقال.',
    newsletter: 'اشترك في نشرتنا البريدية لقراءة هذا المقال.',
    data: 'أخبرنا قليلًا عن نفسك لقراءة هذا المقال.',
  },
  authDialog: 'سجّل الدخول أو أنشئ حسابًا',
  paywallDialog: 'عرض الاشتراك',
  locked: 'محتوى مقفل',
  forgotPassword: 'نسيت كلمة المرور؟',
  emailCode: 'أرسل لي رمزًا بالبريد',
  resetHeading: 'إعادة تعيين كلمة المرور',
  resetDescription: 'أدخل البريد الإلكتروني لحسابك وسنرسل إليك رابطًا لاختيار كلمة مرور جديدة.',
  sendLink: 'أرسل لي رابطًا',
  checkInbox: 'تحقّق من بريدك الوارد',
  resetSent: 'إذا كان {email} يخص حسابًا، فإن رابطًا لاختيار كلمة مرور جديدة في طريقه إليك. يعمل لمدة 30 دقيقة.',
  codeHeading: 'تسجيل الدخول برمز',
  codeDescription: 'أدخل البريد الإلكتروني لحسابك وسنرسل إليك رمزًا من 6 أرقام.',
  sendCode: 'أرسل لي رمزًا بالبريد',
  codeSent: 'إذا كان {email} يخص حسابًا، فإن رمزًا من 6 أرقام في طريقه إليك. أدخله هنا؛ يعمل لمدة 15 دقيقة.',
  code: 'رمز من 6 أرقام',
  newCode: 'أرسل رمزًا جديدًا',
  newPasswordHeading: 'اختر كلمة مرور جديدة',
  newPasswordDescription: '8 أحرف على الأقل. سيتم تسجيل دخولك هنا وتسجيل خروجك من كل مكان آخر.',
  newPassword: 'كلمة المرور الجديدة',
  savePassword: 'حفظ وتسجيل الدخول',
  linkHeading: 'تسجيل الدخول',
  linkDescription: 'لقد فتحت رابط تسجيل دخول من بريدك الإلكتروني.',
  signMeIn: 'سجّل دخولي',
  verifyHeading: 'أكّد عنوان بريدك الإلكتروني',
  verifyDescription: 'لقد فتحت رابطًا من بريدك الإلكتروني لتأكيد أن هذا العنوان يخصك.',
  confirmEmail: 'تأكيد عنوان بريدي الإلكتروني',
  verified: 'شكرًا لك: تم تأكيد عنوان بريدك الإلكتروني.',
  signedInHeading: 'لقد سجّلت الدخول',
  signedInAs: 'لقد سجّلت الدخول باسم {email}.',
  passwordSaved: 'تم حفظ كلمة المرور الجديدة، ولقد سجّلت الدخول باسم {email}.',
  signOut: 'تسجيل الخروج',
  continueReading: 'متابعة',
  backToSignIn: 'العودة إلى تسجيل الدخول',
  codeInvalid: 'هذا الرمز غير صحيح أو انتهت صلاحيته. تحقّق من البريد، أو اطلب رمزًا جديدًا.',
  linkInvalid: 'انتهت صلاحية هذا الرابط أو تم استخدامه من قبل. يرجى طلب رابط جديد.',
  tooMany: 'محاولات كثيرة جدًا. يرجى الانتظار بضع دقائق ثم المحاولة مرة أخرى.',
  required: 'يرجى ملء هذا الحقل.',
  invalidEmail: 'أدخل عنوان بريد إلكتروني صالحًا.',
  invalidValue: 'أدخل قيمة صالحة.',
  subscribed: 'تم اشتراكك. قراءة ممتعة!',
};

export const MESSAGES: Record<string, Messages> = { en, ar };

/** The table for a BCP 47 tag (`ar-EG` → `ar`), English when none matches. */
export function messagesFor(lang: string | null | undefined): Messages {
  const primary = (lang ?? '').toLowerCase().split('-')[0];
  return MESSAGES[primary] ?? en;
}
