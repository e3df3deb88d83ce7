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
};

export const MESSAGES: Record<string, Messages> = { en, ar };

/** The table for a BCP 47 tag (`ar-EG` → `ar`), English when none matches. */
export function messagesFor(lang: string | null | undefined): Messages {
  const primary = (lang ?? '').toLowerCase().split('-')[0];
  return MESSAGES[primary] ?? en;
}
