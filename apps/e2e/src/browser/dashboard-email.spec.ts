import { eventually, type TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { sessionFrom } from '../support/http';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser, tabTo } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

describe('dashboard: account email (mailbox and message copy)', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let session = '';

  beforeAll(async () => {
    system = await DashboardSystem.start({ customers: true });
    session = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    const { publishableKey } = (await system.api('/admin/api-keys', { session, body: { name: 'site' } })).body;
    // Registering sends the verification email; without SMTP_URL it stays in the local mailbox.
    const registered = await system.api('/auth/customers/register', { key: publishableKey, body: { email: 'new.reader@example.com', password: 'reader-password-1', name: 'Nora Reader' } });
    expect(registered.status).toBe(201);
    await eventually(async () => ((await system.api('/admin/mailbox', { session })).body.items?.[0]?.status === 'sent' ? true : undefined), 30_000);
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Email' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('lists the sent messages and reads one from the local mailbox, with the keyboard alone', async () => {
    const [message] = (await system.api('/admin/mailbox', { session })).body.items;
    const { text } = (await system.api(`/admin/mailbox/${message.id}`, { session })).body;
    const mailbox = page.getByRole('region', { name: 'Sent messages' });
    const row = mailbox.getByRole('row', { name: /new\.reader@example\.com/ });
    await row.getByText(message.subject).waitFor();
    await row.getByText('sent').waitFor();
    await row.getByText('local mailbox').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await tabTo(page, /^Read the message to new\.reader@example\.com/);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: message.subject });
    await dialog.getByTitle('The message to new.reader@example.com as HTML').waitFor();
    await dialog.getByText('Plain text').click();
    expect((await dialog.locator('pre').textContent())?.trim()).toBe(text.trim());
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-email-message');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('edits the copy of one message in one language, and goes back to the built-in copy', async () => {
    const templates = page.getByRole('region', { name: 'Message copy' });
    await templates.getByLabel('Message', { exact: true }).selectOption({ label: 'Password reset' });
    await templates.getByLabel('Language').selectOption({ label: 'German' });
    const builtIn = (await system.api('/admin/email-templates', { session })).body.find((t: { kind: string; language: string }) => t.kind === 'password_reset' && t.language === 'de');
    expect(await templates.getByLabel('Subject').inputValue()).toBe(builtIn.subject);
    await templates.getByText('built-in copy').waitFor();

    await templates.getByLabel('Subject').fill('');
    await templates.getByRole('button', { name: 'Save copy' }).click();
    await templates.locator('input[aria-invalid="true"]').waitFor();
    expect(await templates.getByLabel('Subject').getAttribute('aria-invalid')).toBe('true');
    await templates.getByLabel('Subject').fill('Neues Passwort für {{publication}}');
    await templates.getByLabel('Button text').fill('Passwort wählen');
    await templates.getByRole('button', { name: 'Save copy' }).click();
    await templates.getByText('Saved: the next messages use this copy.').waitFor();
    await templates.getByText('your copy').waitFor();
    const find = async () => (await system.api('/admin/email-templates', { session })).body.find((t: { kind: string; language: string }) => t.kind === 'password_reset' && t.language === 'de');
    expect(await find()).toMatchObject({ subject: 'Neues Passwort für {{publication}}', action: 'Passwort wählen', body: builtIn.body, customized: true });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-email-template');

    await templates.getByRole('button', { name: 'Back to the built-in copy' }).click();
    await templates.getByText('Back to the built-in copy.').waitFor();
    expect(await find()).toMatchObject({ subject: builtIn.subject, customized: false });
    expect(await templates.getByLabel('Subject').inputValue()).toBe(builtIn.subject);
  });

  it('edits the payment email of failed-payment recovery like the account email', async () => {
    const templates = page.getByRole('region', { name: 'Message copy' });
    await templates.getByLabel('Message', { exact: true }).selectOption({ label: 'Payment: final notice' });
    await templates.getByLabel('Language').selectOption({ label: 'English' });
    await templates.getByText('built-in copy').waitFor();
    expect(await templates.getByLabel('Subject').inputValue()).toBe('Last notice: your {{publication}} subscription is unpaid');
    await templates.getByLabel('Subject').fill('{{name}}, your {{publication}} renewal is unpaid');
    await templates.getByRole('button', { name: 'Save copy' }).click();
    await templates.getByText('Saved: the next messages use this copy.').waitFor();
    const saved = (await system.api('/admin/email-templates', { session })).body.find((t: { kind: string; language: string }) => t.kind === 'payment_final' && t.language === 'en');
    expect(saved).toMatchObject({ subject: '{{name}}, your {{publication}} renewal is unpaid', customized: true });
    await templates.getByRole('button', { name: 'Back to the built-in copy' }).click();
    await templates.getByText('Back to the built-in copy.').waitFor();
  });
});
