import { ELEMENT_LOCALES } from '@gatehouse/contracts';

/**
 * The browser bundles the gateway serves under `/sdk/v1/` (decisions J1, J2), each built by
 * `npm run build:web` into the web assets directory (`dist/` of the repository unless
 * WEB_ASSETS_DIR says otherwise): the scripts, and the web components' message tables as JSON.
 */
export const WEB_BUNDLES: ReadonlyArray<{ name: string; file: string }> = [
  { name: 'gatehouse', file: 'libs/sdk/gatehouse.js' },
  { name: 'elements', file: 'libs/elements/elements.js' },
  { name: 'offers', file: 'libs/elements/offers.js' },
  ...ELEMENT_LOCALES.map((lang) => ({ name: `messages-${lang}`, file: `libs/elements/messages/${lang}.json` })),
  { name: 'account', file: 'libs/elements/account.js' },
  { name: 'gift', file: 'libs/elements/gift.js' },
];
