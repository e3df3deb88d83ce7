import { installAccount } from '@gatehouse/sdk';
import { defineAccountElements, installedClient } from './lib/account';
import { onElements } from './lib/classic-parts';

/*
 * The classic script served at /sdk/v1/account.js: `<gatehouse-account>`,
 * `<gatehouse-account-button>` and `<gatehouse-organisation>`, and the account methods on the page's SDK client. It brings no lit
 * and no base element of its own: it builds on those of elements.js, loading elements.js from
 * beside itself when the page has no tag for it (with the same data attributes, so one tag is enough).
 */
onElements(document.currentScript as HTMLScriptElement | null, (parts) => defineAccountElements(parts, installedClient(installAccount)));
