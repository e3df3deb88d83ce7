import type { VisitorDevice } from '@gatehouse/contracts';

const TABLET = /iPad|Tablet|PlayBook|Silk|Kindle/i;
const MOBILE = /Mobi|iPhone|iPod|Android|Windows Phone|BlackBerry|Opera Mini|IEMobile/i;

/** The `device` segment attribute from a User-Agent (decisions E1); none when the browser sent none. */
export function deviceFromUserAgent(userAgent: string | undefined): VisitorDevice | undefined {
  if (!userAgent) return undefined;
  if (TABLET.test(userAgent) || isAndroidTablet(userAgent)) return 'tablet';
  return MOBILE.test(userAgent) ? 'mobile' : 'desktop';
}

/** Android without "Mobile" after it. Two scans, not /Android(?!.*Mobile)/, which rescans the rest of the header at every "Android". */
function isAndroidTablet(userAgent: string): boolean {
  const lower = userAgent.toLowerCase();
  const android = lower.indexOf('android');
  return android >= 0 && lower.indexOf('mobile', android) < 0;
}
