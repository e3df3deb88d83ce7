import { installAccount } from '@gatehouse/sdk';
import { html, nothing } from 'lit';
import { installedClient, defineAccountElements } from './account';
import { GatehouseElement } from './base';

/**
 * With a bundler: defines `<gatehouse-account>` and `<gatehouse-account-button>` on this package's
 * base element and lit, and adds the account methods to the page's SDK client (the classic
 * /sdk/v1/account.js does the same with those of elements.js).
 */
export function defineAccount(): void {
  defineAccountElements({ Base: GatehouseElement, html, nothing }, installedClient(installAccount));
}
