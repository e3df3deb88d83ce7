// Browser code runs inside page.evaluate: the DOM types are needed here.
/// <reference lib="dom" />
import type { OrganisationView } from '@gatehouse/contracts';
import { launchBrowser, type TestBrowser } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { READER_PASSWORD } from '../support/constants';
import { SmtpSink } from '../support/mail';
import { WholeSystem, type Reader } from '../support/system-all';

const LONG = 120_000;

/*
 * `<gatehouse-organisation>` (issue #26, docs/elements.md) in Debian's Chromium: a manager on a
 * publisher's page invites an address, the invitee opens the link of the email the SMTP sink
 * received, creates an account and takes the seat, and the manager removes them.
 */
describe('the organisation element', () => {
  let system: WholeSystem;
  /** The manager's browser, and the invitee's own (a browser's pages share storage). */
  let browser: TestBrowser;
  let inviteeBrowser: TestBrowser;
  let site: Server;
  let siteUrl: string;
  let sink: SmtpSink;
  let manager: Reader;
  let organisation: OrganisationView;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    system = await WholeSystem.start({ domains: ['127.0.0.1'], everyService: true, identityEnv: { SMTP_URL: sink.url } });
    const product = await system.product({ name: 'Campus access' });
    await system.paywall({ name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } });
    manager = await system.reader();
    organisation = (await system.admin('/admin/organisations', { body: { name: 'Newsroom <Desk>', productId: product.id, seats: 2, managerIds: [manager.id] } })).body;
    const sdkOrigin = system.url.replace('//127.0.0.1:', '//localhost:');
    site = createServer((req, res) => {
      if (!req.url?.startsWith('/team')) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Team</title>
<script src="${sdkOrigin}/sdk/v1/gatehouse.js" data-publishable-key="${system.publishableKey}" async></script>
<script src="${sdkOrigin}/sdk/v1/account.js" async></script>
</head><body><main><gatehouse-organisation></gatehouse-organisation></main></body></html>`);
    });
    await new Promise<void>((ready) => site.listen(0, '127.0.0.1', ready));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    [browser, inviteeBrowser] = await Promise.all([launchBrowser(), launchBrowser()]);
  }, LONG);

  afterAll(async () => {
    await browser?.close();
    await inviteeBrowser?.close();
    site?.close();
    await system?.close();
    await sink?.close();
  }, LONG);

  const element = (page: Page) => page.locator('main gatehouse-organisation');
  const status = (page: Page, text: string) => element(page).locator('[part="status"]').filter({ hasText: text }).waitFor();
  /** The page once account.js defined the tag and gave the SDK its account methods. */
  async function open(page: Page, url: string): Promise<Page> {
    await page.goto(url);
    await page.waitForFunction(() => customElements.get('gatehouse-organisation') !== undefined && typeof (globalThis as any).gatehouse?.getManagedOrganisations === 'function', undefined, {
      timeout: 30_000,
    });
    return page;
  }
  const seatsUsed = async () => (await system.admin(`/admin/organisations/${organisation.id}`)).body.seatsUsed;

  it(
    'the manager invites an address, the invitee joins from the email by creating an account, and the manager removes them',
    async () => {
      const managerPage = await open(await browser.newPage(), `${siteUrl}/team`);
      await managerPage.evaluate(([email, password]) => (globalThis as any).gatehouse.login({ email, password }), [manager.email, READER_PASSWORD] as const);
      // The name staff typed is text, never markup.
      await element(managerPage).getByRole('heading', { name: 'Newsroom <Desk>' }).waitFor();
      await element(managerPage).getByText('0 of 2 seats used').waitFor();

      const invitee = `invitee-${randomUUID().slice(0, 8)}@example.com`;
      await element(managerPage).getByLabel('Email address to invite').fill(invitee);
      await element(managerPage).getByRole('button', { name: 'Invite', exact: true }).click();
      await status(managerPage, `Invitation sent to ${invitee}.`);
      await element(managerPage).getByRole('list', { name: 'Members' }).getByText(invitee).waitFor();

      // The invitee opens the email's link in a browser of their own and creates an account there.
      const token = await sink.invitationTokenTo(invitee);
      const mail = sink.to(invitee).find((received) => received.text.includes(token));
      const link = /(http\S+#gatehouse-join=\S+)/.exec(mail?.text ?? '')?.[1] ?? '';
      expect(link).toBe(`${siteUrl}/team#gatehouse-join=${token}`);
      const inviteePage = await open(await inviteeBrowser.newPage(), link);
      await element(inviteePage).getByText('Sign in or create an account with the invited address to accept your invitation.').waitFor();
      await element(inviteePage).getByRole('button', { name: 'Create account' }).click();
      const dialog = inviteePage.locator('gatehouse-auth-modal dialog');
      await dialog.waitFor({ state: 'visible' });
      await dialog.getByLabel('Name').fill('Ivy Invitee');
      await dialog.getByLabel('Email').fill(invitee);
      await dialog.getByLabel('Password').fill(READER_PASSWORD);
      await dialog.getByRole('button', { name: 'Create account', exact: true }).click();
      await status(inviteePage, 'Welcome: you now read with a seat of Newsroom <Desk>.');
      expect(new URL(inviteePage.url()).hash).toBe('');
      expect(await seatsUsed()).toBe(1);
      const inviteeToken: string = await inviteePage.evaluate(async () => (await (globalThis as any).gatehouse.getSession()).accessToken);
      expect(await system.decisionFor({ accessToken: inviteeToken }, '/premium/story')).toMatchObject({ granted: true, reason: 'organisation', organisation: { name: 'Newsroom <Desk>' } });

      // The manager sees the member and frees the seat; the member's next check is refused.
      await managerPage.reload();
      await element(managerPage).getByText('1 of 2 seats used').waitFor();
      await element(managerPage).getByRole('button', { name: `Remove ${invitee}` }).click();
      await status(managerPage, `${invitee} no longer holds a seat.`);
      await element(managerPage).getByText('0 of 2 seats used').waitFor();
      expect(await seatsUsed()).toBe(0);
      expect(await system.decisionFor({ accessToken: inviteeToken }, '/premium/story')).toMatchObject({ granted: false, reason: 'blocked' });
      await browser.screenshot(managerPage, 'organisation-element');
    },
    LONG,
  );
});
