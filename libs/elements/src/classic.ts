import { defineElements } from './lib/define';
import { setMessagesBase } from './lib/messages';

/*
 * The classic script served at /sdk/v1/elements.js. It defines the tags and, when the page
 * has no SDK script of its own, loads gatehouse.js from beside itself with the same
 * data-publishable-key (so one tag is enough).
 */
const self = document.currentScript as HTMLScriptElement | null;
// The other locales' message tables are beside this script.
if (self?.src) setMessagesBase(self.src);
defineElements();
const queue = (window as { gatehouse?: unknown }).gatehouse;
const hasSdk = queue !== undefined && !Array.isArray(queue);
const sdkTag = document.querySelector('script[src*="/gatehouse.js"], script[src^="gatehouse.js"]');
if (!hasSdk && !sdkTag && self?.src && self.dataset['publishableKey']) {
  const script = document.createElement('script');
  script.src = new URL('gatehouse.js', self.src).href;
  script.async = true;
  for (const [key, value] of Object.entries(self.dataset)) script.dataset[key] = value;
  document.head.append(script);
}
