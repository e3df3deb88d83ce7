import { installGifts } from '@gatehouse/sdk';
import { onElements } from './lib/classic-parts';
import { installedClient } from './lib/account';
import { defineGiftElement } from './lib/gift';

/*
 * The classic script served at /sdk/v1/gift.js: `<gatehouse-gift>`, where a buyer gives a
 * subscription, and `buyGift` on the page's SDK client, built on elements.js's lit and base element.
 */
onElements(document.currentScript as HTMLScriptElement | null, (parts) => defineGiftElement(parts, installedClient(installGifts)));
