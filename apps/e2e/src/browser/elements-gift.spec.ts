// Browser code runs inside page.evaluate: the DOM types are needed here.
/// <reference lib="dom" />
import { GIFT_LINK_PARAMETER } from '@gatehouse/contracts';
import { eventually, launchBareBrowser, launchBrowser, type TestBrowser } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { READER_PASSWORD } from '../support/constants';
import { SmtpSink } from '../support/mail';
import { WholeSystem } from '../support/system-all';

const LONG = 180_000;

/*
 * Gift subscriptions (issue #25 item 2) as people use them in Debian's Chromium: a buyer on the
 * publisher's gift page (gatehouse.js and gift.js) pays at the fake processor; the recipient opens
 * the emailed link in a browser of their own, signs up in the account element (account.js, with
 * gift.js's redemption inside it), redeems, and reads the paywalled article.
 */
describe('the gift element and the redeem flow', () => {
  let system: WholeSystem;
  let browser: TestBrowser;
  let bare: Browser;
  let site: Server;
  let siteUrl: string;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    system = await WholeSystem.start({ domains: ['127.0.0.1'], everyService: true, identityEnv: { SMTP_URL: sink.url } });
    await system.paywall({ name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } });
    await system.price((await system.product({ name: 'Digital Gazette' })).id, { currency: 'eur', unitAmount: 900, interval: 'month' });
    const sdkOrigin = system.url.replace('//127.0.0.1:', '//localhost:');
    const script = (name: string) => `<script src="${sdkOrigin}/sdk/v1/${name}.js"${name === 'gatehouse' ? ` data-publishable-key="${system.publishableKey}"` : ''} async></script>`;
    const pages: Record<string, string> = {
      '/gift': `${script('gatehouse')}${script('gift')}</head><body><main><gatehouse-gift redeem-url="/account"></gatehouse-gift></main>`,
      // The account page, where gift emails lead: account.js, and gift.js for the redemption of their links.
      '/account': `${script('gatehouse')}${script('account')}${script('gift')}</head><body><main><gatehouse-account></gatehouse-account></main>`,
      '/premium/story': `<script>window.record = []; (window.gatehouse = window.gatehouse || []).push(['on', 'access', function (r) { record.push(r); }]);</script>${script('gatehouse')}</head><body><main><h1>The story</h1></main>`,
    };
    site = createServer((req, res) => {
      const page = pages[new URL(req.url ?? '/', 'http://127.0.0.1').pathname];
      if (!page) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Gazette</title>${page}</body></html>`);
    });
    await new Promise<void>((ready) => site.listen(0, '127.0.0.1', ready));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    bare = await launchBareBrowser();
  }, LONG);

  afterAll(async () => {
    await bare?.close();
    await browser?.close();
    site?.close();
    await system?.close();
    await sink?.close();
  }, LONG);

  it(
    'a buyer pays for a gift with the element at the processor; the recipient redeems the emailed link in a fresh browser and reads the article',
    async () => {
      const recipientEmail = `friend-${randomUUID().slice(0, 8)}@example.com`;
      const buyer = await browser.newPage();
      await buyer.goto(`${siteUrl}/gift`);
      const gift = buyer.locator('gatehouse-gift');
      await gift.getByRole('option', { name: 'Digital Gazette' }).waitFor({ state: 'attached', timeout: 30_000 });
      await gift.getByLabel('Duration').selectOption({ label: '3 months' });
      await gift.getByLabel('Their name').fill('Ada <b>Lovelace</b>');
      await gift.getByLabel('Their email').fill(recipientEmail);
      await gift.getByLabel('Your name').fill('Grace');
      await gift.getByLabel('Your email').fill('grace@example.com');
      await gift.getByLabel('Your message (optional)').fill('Happy birthday, <i>Ada</i>!');
      await gift.getByText('You pay €27.00 once. Nothing renews.').waitFor();
      await browser.screenshot(buyer, 'gift-element');
      await gift.getByRole('button', { name: 'Buy the gift' }).click();

      await buyer.waitForURL((url) => url.toString().startsWith(`${system.fake.url}/checkout/cs_`), { timeout: 30_000 });
      const sessionId = new URL(buyer.url()).pathname.split('/').pop() as string;
      await expect(buyer.locator('#amount-total').textContent()).resolves.toBe('2700 eur');
      await buyer.getByRole('button', { name: 'Pay' }).click();
      await buyer.waitForURL((url) => url.toString().startsWith(`${siteUrl}/gift?gatehouse_gift_paid=1`), { timeout: 30_000 });
      await gift.getByText('Thank you! Your gift is paid: we email it on the day you chose.').waitFor({ timeout: 30_000 });

      // The processor tells billing, signed, as its webhook does; the gift's date is today, so it is emailed at once.
      const completed = (await system.fake.events()).find((event) => event.type === 'checkout.session.completed' && event.data.object['id'] === sessionId);
      await system.deliverOk(completed!);
      const mail = await sink.nextTo(recipientEmail, 1, 30_000);
      expect(mail.subject).toBe('Grace gave you 3 months of Digital Gazette');
      expect(mail.html).toContain('Happy birthday, &lt;i&gt;Ada&lt;/i&gt;!');
      expect(mail.html).toContain('Hello Ada &lt;b&gt;Lovelace&lt;/b&gt;');
      const link = new RegExp(`(${siteUrl}/account#${GIFT_LINK_PARAMETER}=[A-Za-z0-9_-]+)`).exec(mail.text)?.[1];
      expect(link).toBeDefined();

      // The recipient, in a browser that never saw the site, opens the link, creates an account and redeems.
      const recipient = await (await bare.newContext()).newPage();
      await recipient.goto(link!);
      const account = recipient.locator('gatehouse-account');
      await account.getByRole('heading', { name: 'Your gift' }).waitFor({ timeout: 30_000 });
      await account.getByText('Sign in or create your account to redeem the gift you were given.').waitFor();
      await account.getByRole('button', { name: 'Create account' }).click();
      const modal = recipient.locator('gatehouse-auth-modal dialog');
      await modal.waitFor({ state: 'visible' });
      await modal.getByLabel('Name').fill('Ada Lovelace');
      await modal.getByLabel('Email').fill(recipientEmail);
      await modal.getByLabel('Password').fill(READER_PASSWORD);
      await modal.getByRole('button', { name: 'Create account', exact: true }).click();
      await modal.waitFor({ state: 'hidden' });
      await account.getByRole('button', { name: 'Redeem my gift' }).click();
      const status = account.locator('[part="status"]');
      await status.getByText(/^Your gift is redeemed: 3 months of Digital Gazette, until \w+ \d{1,2}, \d{4}\.$/).waitFor({ timeout: 30_000 });
      // The plan it made ends and does not renew.
      await account.locator('[part="period"]').getByText(/^Ends on \w+ \d{1,2}, \d{4}$/).waitFor();
      expect(new URL(recipient.url()).hash).toBe('');
      await browser.screenshot(recipient, 'gift-redeemed');

      // The article opens for them, as for any subscriber.
      const granted = await eventually(async () => {
        await recipient.goto(`${siteUrl}/premium/story`);
        await recipient.waitForFunction(() => (globalThis as any).record.length > 0, undefined, { timeout: 30_000 });
        const [decision] = await recipient.evaluate(() => (globalThis as any).record);
        return decision.granted ? decision : undefined;
      }, 30_000);
      expect(granted).toMatchObject({ granted: true, reason: 'subscriber' });
      await expect(recipient.getByRole('heading', { name: 'The story' }).isVisible()).resolves.toBe(true);
    },
    LONG,
  );
});
