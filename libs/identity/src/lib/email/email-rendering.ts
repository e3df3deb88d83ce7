import {
  EMAIL_KINDS,
  EMAIL_LINK_PARAMETERS,
  GIFT_LINK_PARAMETER,
  ORGANISATION_INVITATION_PARAMETER,
  type BrandingConfiguration,
  type GiftEmailValues,
  type EmailCopy,
  type EmailKind,
  type MessageKind,
  type PublicationView,
} from '@gatehouse/contracts';
import { hostInDomains } from '@gatehouse/platform';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export interface EmailContext {
  kind: MessageKind;
  copy: EmailCopy;
  publication: PublicationView;
  branding: BrandingConfiguration;
  /** The values of the copy's placeholders; a gift email's and an organisation invitation's too. */
  values: { name: string; code?: string; minutes: number; organisation?: string } & Partial<GiftEmailValues>;
  /**
   * The link's page and the token its fragment carries; no link without a token. A payment
   * email's link is whole: its `token` is the URL (the processor's billing portal).
   */
  link: { returnUrl: string | null; token: string } | null;
}

const DEFAULT_COLOUR = '#1a56db';
/** A colour the HTML may put in a style attribute: hex, or rgb()/hsl() with plain numbers. */
const SAFE_COLOUR = /^(#[0-9a-f]{3,8}|(rgb|hsl)a?\([\d\s.,%/]+\))$/i;

/** A message of one publication in its branding: plain text and HTML from the same copy. */
export function renderEmail(context: EmailContext): RenderedEmail {
  const fill = (template: string) =>
    template.replace(/\{\{\s*(name|publication|code|minutes|sender|product|months|date|message|organisation)\s*\}\}/g, (_, key: string) =>
      key === 'publication' ? context.publication.name : String(context.values[key as Exclude<keyof EmailContext['values'], 'publication'>] ?? ''),
    );
  const subject = fill(context.copy.subject).replace(/[\r\n]+/g, ' ');
  const paragraphs = fill(context.copy.body).split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  const action = fill(context.copy.action);
  const url = context.link && messageUrl(context.kind, context.publication, context.link);

  const text = [
    context.publication.name,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(url ? [`${action}: ${url}`, ''] : []),
    `— ${context.publication.name}`,
  ].join('\n');

  const colour = context.branding.brandColor && SAFE_COLOUR.test(context.branding.brandColor) ? context.branding.brandColor : DEFAULT_COLOUR;
  const logo = context.branding.logoUrl && /^https?:\/\//.test(context.branding.logoUrl) ? context.branding.logoUrl : null;
  const header = logo
    ? `<img src="${escapeHtml(logo)}" alt="${escapeHtml(context.publication.name)}" style="max-height:48px;max-width:240px">`
    : `<strong style="font-size:20px;color:${colour}">${escapeHtml(context.publication.name)}</strong>`;
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f5;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#18181b">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;border-top:4px solid ${colour}">
<tr><td style="padding:24px">${header}</td></tr>
<tr><td style="padding:0 24px 8px;font-size:16px;line-height:1.5">${paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('')}</td></tr>
${context.values.code ? `<tr><td style="padding:0 24px 16px"><div style="font-size:32px;letter-spacing:8px;font-weight:bold">${escapeHtml(context.values.code)}</div></td></tr>` : ''}
${url ? `<tr><td style="padding:8px 24px 24px"><a href="${escapeHtml(url)}" style="display:inline-block;padding:12px 20px;border-radius:6px;background:${colour};color:#ffffff;text-decoration:none;font-weight:bold">${escapeHtml(action)}</a></td></tr>` : ''}
<tr><td style="padding:16px 24px;font-size:12px;color:#71717a">${escapeHtml(context.publication.name)}</td></tr>
</table></body></html>
`;
  return { subject, text, html };
}

const REDACTED_TOKEN = 'gatehouse-redacted-token';
export const REDACTED_CODE = '••••••';
export const REDACTED_LINK = '[link sent to the reader, not kept]';

/**
 * The copy a message keeps (the local mailbox, the subject of every message): its code and its
 * link's token replaced, so no one reading stored messages can sign in as their recipient.
 */
export function redactedEmail(context: EmailContext, withCode: boolean, returnUrl: string | null | undefined): RenderedEmail {
  const rendered = renderEmail({
    ...context,
    values: { ...context.values, code: withCode ? REDACTED_CODE : undefined },
    link: returnUrl === undefined ? null : { returnUrl, token: REDACTED_TOKEN },
  });
  return {
    subject: rendered.subject,
    text: rendered.text.replace(new RegExp(`\\S*${REDACTED_TOKEN}\\S*`, 'g'), REDACTED_LINK),
    html: rendered.html.replace(new RegExp(` href="[^"]*${REDACTED_TOKEN}[^"]*"`, 'g'), ` title="${REDACTED_LINK}"`),
  };
}

/**
 * The page the link leads to with the token in its fragment, which no server receives: the
 * publisher's page uses the token with a POST only once the reader confirms (docs/email.md). Only
 * a domain its owner proved carries a token: a `returnUrl` elsewhere is taken as if none was given.
 */
/** The fragment parameter each kind's link carries its token in. */
const LINK_PARAMETERS: Record<LinkKind, string> = { ...EMAIL_LINK_PARAMETERS, gift_received: GIFT_LINK_PARAMETER, organisation_invitation: ORGANISATION_INVITATION_PARAMETER };
type LinkKind = EmailKind | 'gift_received' | 'organisation_invitation';

export function linkUrl(kind: LinkKind, publication: PublicationView, returnUrl: string | null, token: string): string | null {
  const page = returnUrl && isPageOf(returnUrl, publication.verifiedDomains) ? returnUrl : defaultPage(publication);
  if (!page) return null;
  const url = new URL(page);
  url.hash = `${LINK_PARAMETERS[kind]}=${token}`;
  return url.toString();
}

function messageUrl(kind: MessageKind, publication: PublicationView, link: { returnUrl: string | null; token: string }): string | null {
  if (kind === 'staff_invitation') return invitationUrl(link.returnUrl, link.token);
  if (isTokenKind(kind)) return linkUrl(kind, publication, link.returnUrl, link.token);
  return link.token;
}

/** Kinds whose link is a page of the publication with a token of ours; the others' link is whole (the processor's portal, a page to subscribe). */
function isTokenKind(kind: MessageKind): kind is LinkKind {
  return kind === 'gift_received' || kind === 'organisation_invitation' || (EMAIL_KINDS as readonly string[]).includes(kind);
}

/** The dashboard's accept page (admin names it) with the token in its fragment, as the team screen's copied link has it. */
function invitationUrl(acceptUrl: string | null, token: string): string | null {
  if (!acceptUrl) return null;
  const url = new URL(acceptUrl);
  url.hash = `token=${token}`;
  return url.toString();
}

function isPageOf(raw: string, domains: readonly string[]): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && hostInDomains(url.hostname, domains);
  } catch {
    return false;
  }
}

function defaultPage(publication: PublicationView): string | null {
  const domain = publication.verifiedDomains.find((d) => !d.startsWith('*.'));
  return domain ? `https://${domain}/` : null;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}
