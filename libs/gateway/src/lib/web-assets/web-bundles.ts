/**
 * The browser bundles the gateway serves under `/sdk/v1/` (decisions J1, J2), each built by
 * `npm run build:web` into the web assets directory (`dist/` of the repository unless
 * WEB_ASSETS_DIR says otherwise). One line per bundle.
 */
export const WEB_BUNDLES: ReadonlyArray<{ name: string; file: string }> = [
  { name: 'gatehouse', file: 'libs/sdk/gatehouse.js' },
  { name: 'elements', file: 'libs/elements/elements.js' },
  { name: 'account', file: 'libs/elements/account.js' },
];
