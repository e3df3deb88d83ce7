import { installGifts } from '@gatehouse/sdk';
import { elementsParts } from './lib/classic-parts';
import { installedClient } from './lib/account';
import { defineGiftElement } from './lib/gift';

/*
 * The classic script served at /sdk/v1/gift.js: `<gatehouse-gift>`, where a buyer gives a
 * subscription, and `buyGift` on the page's SDK client, built on elements.js's lit and base element.
 */
void elementsParts(document.currentScript as HTMLScriptElement | null).then((parts) => defineGiftElement(parts, installedClient(installGifts)));
