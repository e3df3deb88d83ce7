import type { PaywallPresentation, PriceView } from '@gatehouse/contracts';

/** How the dashboard writes times, dates and money: British English, as the rest of its copy. */
export const formatDateTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '—');
export const formatDate = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('en-GB', { dateStyle: 'medium' }) : '—');

/** Minor units (decisions F1) in major units with the currency's symbol. */
export const formatMoney = (minorUnits: number, currency: string) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency.toUpperCase() }).format(minorUnits / 100);

export const formatPrice = (price: PriceView) => formatMoney(price.unitAmount, price.currency);

/** How often a price is paid, and for what when once: "every month", "once, a 7-day pass", "once, for one article". */
export function formatInterval(price: Pick<PriceView, 'interval' | 'passHours'>): string {
  const hours = price.passHours ?? 0;
  switch (price.interval) {
    case 'lifetime':
      return 'once, for life';
    case 'pass':
      return `once, a ${hours % 24 === 0 ? `${hours / 24}-day` : `${hours}-hour`} pass`;
    case 'single_article':
      return 'once, for one article';
    default:
      return `every ${price.interval}`;
  }
}

export const PRESENTATION_LABELS: Record<PaywallPresentation, string> = { modal: 'Modal', inline: 'Inline', sticky_bar: 'Sticky bar', content_lock: 'Content lock' };
