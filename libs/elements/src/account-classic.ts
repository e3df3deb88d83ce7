import { installAccount } from '@gatehouse/sdk';
import type { html as litHtml } from 'lit';
import type { GatehouseElement } from './lib/base';
import { accountClient, defineAccountElements } from './lib/account';

/*
 * The classic script served at /sdk/v1/account.js: `<gatehouse-account>`,
 * `<gatehouse-account-button>` and `<gatehouse-organisation>`, and the account methods on the page's SDK client. It brings no lit
 * and no base element of its own: it builds on those of elements.js, loading elements.js from
 * beside itself when the page has no tag for it (with the same data attributes, so one tag is enough).
 */
const self = document.currentScript as HTMLScriptElement | null;

/** lit's `html` tag: a template result is the strings and values marked as HTML (lit-html's `_$litType$` 1). */
const html = ((strings: TemplateStringsArray, ...values: unknown[]) => ({ ['_$litType$']: 1, strings, values })) as unknown as typeof litHtml;
/** lit's `nothing` (a registered symbol, the same in every copy of lit). */
const nothing = Symbol.for('lit-nothing') as never;

const BASE_TAG = 'gatehouse-register-form';

function start(): void {
  const Base = Object.getPrototypeOf(customElements.get(BASE_TAG)) as typeof GatehouseElement;
  defineAccountElements({ Base, html, nothing }, accountClient(installAccount));
}

if (customElements.get(BASE_TAG)) start();
else {
  void customElements.whenDefined(BASE_TAG).then(start);
  if (!document.querySelector('script[src*="/elements.js"]') && self?.src) {
    const script = document.createElement('script');
    script.src = new URL('elements.js', self.src).href;
    script.async = true;
    for (const [key, value] of Object.entries(self.dataset)) script.dataset[key] = value;
    document.head.append(script);
  }
}
