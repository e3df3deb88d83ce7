import { BRANDING_DEFAULTS, type PublicationView } from '@gatehouse/contracts';
import { DEFAULT_COPY, STAFF_INVITATION_COPY } from '../default-copy';
import { languageOf } from '../email-language';
import { linkUrl, redactedEmail, REDACTED_LINK, renderEmail, type EmailContext } from '../email-rendering';

const publication: PublicationView = { id: 'p1', name: 'Alpha <Times>', domains: ['*.alpha.example', 'alpha.example'], selfRegistration: true, verifiedDomains: ['*.alpha.example', 'alpha.example'] };

function context(overrides: Partial<EmailContext> = {}): EmailContext {
  return {
    kind: 'login_code',
    copy: DEFAULT_COPY.login_code.en,
    publication,
    branding: { ...BRANDING_DEFAULTS, brandColor: '#c2410c' },
    values: { name: 'Ada "A" Reader', code: '042917', minutes: 15 },
    link: { returnUrl: null, token: 'tok_123' },
    ...overrides,
  };
}

describe('account email rendering', () => {
  it('fills the copy in text and HTML, escaping what readers and staff typed', () => {
    const { subject, text, html } = renderEmail(context());
    expect(subject).toBe('Your Alpha <Times> sign-in code: 042917');
    expect(text).toContain('Hello Ada "A" Reader,');
    expect(text).toContain('Sign me in: https://alpha.example/#gatehouse-login=tok_123');
    expect(html).toContain('Hello Ada &quot;A&quot; Reader,');
    expect(html).toContain('Alpha &lt;Times&gt;');
    expect(html).not.toContain('<Times>');
    expect(html).toContain('href="https://alpha.example/#gatehouse-login=tok_123"');
    expect(html).toContain('background:#c2410c');
  });

  it("keeps a colour or a logo out of the HTML unless it is plainly one", () => {
    const branding = { ...BRANDING_DEFAULTS, brandColor: 'red;background:url(https://evil.example/x)', logoUrl: 'javascript:alert(1)' };
    const { html } = renderEmail(context({ branding }));
    expect(html).not.toContain('evil.example');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('background:#1a56db');
  });

  it("leads links only to the publication's own pages", () => {
    expect(linkUrl('password_reset', publication, 'https://www.alpha.example/account?x=1', 't')).toBe('https://www.alpha.example/account?x=1#gatehouse-reset-password=t');
    expect(linkUrl('password_reset', publication, 'https://evil.example/', 't')).toBe('https://alpha.example/#gatehouse-reset-password=t');
    expect(linkUrl('password_reset', { ...publication, domains: ['*.alpha.example'], verifiedDomains: ['*.alpha.example'] }, null, 't')).toBeNull();
    // A claimed domain its owner has not proven carries no token: its page is taken as if none was given.
    const partly = { ...publication, domains: [...publication.domains, 'beta.example'], verifiedDomains: ['alpha.example'] };
    expect(linkUrl('password_reset', partly, 'https://beta.example/account', 't')).toBe('https://alpha.example/#gatehouse-reset-password=t');
    expect(linkUrl('password_reset', partly, 'https://www.alpha.example/account', 't')).toBe('https://alpha.example/#gatehouse-reset-password=t');
    expect(linkUrl('password_reset', { ...partly, verifiedDomains: [] }, 'https://alpha.example/account', 't')).toBeNull();
  });

  it('keeps the port, path and query of the page the reader asked from, and drops a page that is no plain web page', () => {
    const local = { ...publication, domains: ['127.0.0.1', 'alpha.example'], verifiedDomains: ['127.0.0.1', 'alpha.example'] };
    expect(linkUrl('email_verification', local, 'http://127.0.0.1:8123/members/account?tab=profile#old', 't')).toBe('http://127.0.0.1:8123/members/account?tab=profile#gatehouse-verify-email=t');
    expect(linkUrl('login_code', local, 'https://alpha.example:8443/news/2026/story', 't')).toBe('https://alpha.example:8443/news/2026/story#gatehouse-login=t');
    for (const hostile of ['https://reader:secret@alpha.example/account', 'javascript:alert(1)//alpha.example', 'ftp://alpha.example/', 'not a url']) {
      expect(linkUrl('login_code', local, hostile, 't')).toBe('https://127.0.0.1/#gatehouse-login=t');
    }
  });

  it("leads a staff invitation to the dashboard's accept page named by admin, in the publication's branding", () => {
    const invitation = context({ kind: 'staff_invitation', copy: STAFF_INVITATION_COPY, link: { returnUrl: 'https://gatehouse.example/dashboard/invitation', token: 'inv_9' } });
    const { subject, text, html } = renderEmail(invitation);
    expect(subject).toBe('You are invited to Alpha <Times> on Gatehouse');
    expect(text).toContain('Accept the invitation: https://gatehouse.example/dashboard/invitation#token=inv_9');
    expect(html).toContain('href="https://gatehouse.example/dashboard/invitation#token=inv_9"');
    expect(html).toContain('background:#c2410c');
  });

  it("leads payment email to the processor's portal as it is, and keeps only a redacted copy of that link", () => {
    const portal = 'https://billing.processor.example/p/session/bps_123?x=1';
    const payment = context({ kind: 'payment_final', copy: DEFAULT_COPY.payment_final.de, values: { name: 'Ada', minutes: 0 }, link: { returnUrl: null, token: portal } });
    const { subject, text, html } = renderEmail(payment);
    expect(subject).toBe('Letzte Erinnerung: Ihr Abonnement bei Alpha <Times> ist unbezahlt');
    expect(text).toContain(`Bezahlen und weiterlesen: ${portal}`);
    expect(html).toContain(`href="${portal.replace('&', '&amp;')}"`);
    const kept = redactedEmail(payment, false, null);
    expect(kept.text).toContain(`Bezahlen und weiterlesen: ${REDACTED_LINK}`);
    expect(`${kept.text}${kept.html}`).not.toContain('bps_123');
  });

  it('writes without a link when there is no page to lead to, and a subject on one line', () => {
    const copy = { ...DEFAULT_COPY.password_reset.en, subject: 'Line one\nline two' };
    const rendered = renderEmail(context({ kind: 'password_reset', copy, publication: { ...publication, domains: [], verifiedDomains: [] } }));
    expect(rendered.subject).toBe('Line one line two');
    expect(rendered.text).not.toContain('http');
    expect(rendered.html).not.toContain('href=');
  });
});

describe('the language of a locale', () => {
  it.each([
    [undefined, 'en'],
    ['de', 'de'],
    ['de-AT', 'de'],
    ['fr-CH, de;q=0.8, en;q=0.9', 'en'],
    ['fr-CH, de;q=0.9, en;q=0.8', 'de'],
    ['en;q=0, de', 'de'],
    ['xx', 'en'],
  ])('%s → %s', (locale, language) => {
    expect(languageOf(locale)).toBe(language);
  });
});
