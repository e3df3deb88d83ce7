import { EMAIL_LINK_PARAMETERS, type EmailKind } from '@gatehouse/contracts';
import { eventually } from '@gatehouse/testing';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server received it, its MIME parts decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
}

/**
 * A real SMTP server on a local port, standing in for the mail provider: it accepts every message
 * (plain SMTP, no TLS, no auth) and keeps it for the test to read.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  private server: SMTPServer | null = null;

  private constructor(public port: number) {}

  /** On a free port, or on `port` (a server started later on an address already configured). */
  static async start(port = 0): Promise<SmtpSink> {
    const sink = new SmtpSink(port);
    await sink.listen();
    return sink;
  }

  async listen(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.received.push(parseMail(Buffer.concat(chunks).toString('utf8'), session.envelope.mailFrom ? session.envelope.mailFrom.address : '', session.envelope.rcptTo.map((r) => r.address)));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The messages to an address, in the order received. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to.includes(address));
  }

  /** Waits for the `count`-th message to an address. */
  nextTo(address: string, count = 1, timeoutMs = 20_000): Promise<ReceivedMail> {
    return eventually(() => this.to(address)[count - 1], timeoutMs);
  }

  /** Waits for the `count`-th organisation invitation to an address, and answers its link's token (`#gatehouse-join=`). */
  invitationTokenTo(address: string, count = 1, timeoutMs = 20_000): Promise<string> {
    return eventually(() => this.to(address).flatMap((mail) => /#gatehouse-join=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? [])[count - 1], timeoutMs);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}

/** The token a message's link carries in its fragment, and the link itself. */
export function linkIn(text: string, kind: EmailKind): { url: string; token: string } {
  const match = new RegExp(`(https?://\\S+#${EMAIL_LINK_PARAMETERS[kind]}=([A-Za-z0-9_-]+))`).exec(text);
  if (!match) throw new Error(`no ${kind} link in:\n${text}`);
  return { url: match[1], token: match[2] };
}

export function codeIn(text: string): string {
  const match = /\b(\d{6})\b/.exec(text);
  if (!match) throw new Error(`no code in:\n${text}`);
  return match[1];
}

function parseMail(raw: string, from: string, to: string[]): ReceivedMail {
  const { headers, body } = splitHeaders(raw);
  const parts: Record<string, string> = {};
  collectParts(headers, body, parts);
  return { from, to, headers, subject: decodeWords(headers['subject'] ?? ''), text: parts['text/plain'] ?? '', html: parts['text/html'] ?? '' };
}

function splitHeaders(raw: string): { headers: Record<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, end).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: raw.slice(end + 4) };
}

function collectParts(headers: Record<string, string>, body: string, parts: Record<string, string>): void {
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.startsWith('multipart/') && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const inner = splitHeaders(part.replace(/^\r\n/, ''));
      collectParts(inner.headers, inner.body, parts);
    }
    return;
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const decoded =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body)
        : body;
  parts[type.split(';')[0].trim().toLowerCase()] = decoded.replace(/\r\n/g, '\n').trim();
}

function decodeQuotedPrintable(value: string): string {
  const escaped = value.replace(/=\r?\n/g, '').replace(/%/g, '%25').replace(/=([0-9A-F]{2})/gi, '%$1');
  return decodeURIComponent(escaped);
}

/** RFC 2047 encoded words of a header (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`). */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}
