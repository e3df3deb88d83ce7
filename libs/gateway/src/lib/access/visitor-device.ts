import type { VisitorDevice } from '@gatehouse/contracts';

const TABLET = /iPad|Tablet|PlayBook|Silk|Kindle|(Android(?!.*Mobile))/i;
const MOBILE = /Mobi|iPhone|iPod|Android|Windows Phone|BlackBerry|Opera Mini|IEMobile/i;

/** The `device` segment attribute from a User-Agent (decisions E1); none when the browser sent none. */
export function deviceFromUserAgent(userAgent: string | undefined): VisitorDevice | undefined {
  if (!userAgent) return undefined;
  if (TABLET.test(userAgent)) return 'tablet';
  return MOBILE.test(userAgent) ? 'mobile' : 'desktop';
}
