import { installAccount } from '@gatehouse/sdk';
import { defineAccountElements, installedClient } from './lib/account';
import { onElements } from './lib/classic-parts';

/*
 * The classic script served at /sdk/v1/account.js: `<gatehouse-account>` and
 * `<gatehouse-account-button>`, and the account methods on the page's SDK client, built on
 * elements.js's lit and base element.
 */
onElements(document.currentScript as HTMLScriptElement | null, (parts) => defineAccountElements(parts, installedClient(installAccount)));
