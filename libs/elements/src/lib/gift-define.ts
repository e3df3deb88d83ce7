import { installGifts } from '@gatehouse/sdk';
import { html, nothing } from 'lit';
import { installedClient } from './account';
import { GatehouseElement } from './base';
import { defineGiftElement } from './gift';

/** With a bundler: defines `<gatehouse-gift>` on this package's base element and lit, and adds `buyGift` to the page's SDK client. */
export function defineGift(): void {
  defineGiftElement({ Base: GatehouseElement, html, nothing }, installedClient(installGifts));
}
