import { Injectable } from '@nestjs/common';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { TargetPolicy, TargetRefused } from '../targets/target-policy.service';
import { WebhooksOutConfig } from '../webhooks-out.config';

/** How much of a response body the delivery log keeps. */
const LOGGED_BODY_BYTES = 2048;

export interface AttemptOutcome {
  succeeded: boolean;
  responseCode: number | null;
  /** The first 2 KiB of the body, as text. */
  responseBody: string | null;
  /** Null when unknown: the attempt was interrupted. */
  durationMs: number | null;
  /** Why there was no answer; null when there was one. */
  error: string | null;
}

export interface OutgoingWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
}

interface Answer {
  status: number;
  body: string;
}

/**
 * Makes one attempt: a POST that succeeds on any 2xx (decisions G3), within WEBHOOK_TIMEOUT_MS from
 * connecting to the answer, to a target the TargetPolicy still allows. Redirects are not followed:
 * a 3xx is a failed attempt, and cannot lead a delivery into a private network.
 */
@Injectable()
export class WebhookSender {
  private readonly timeoutMs: number;

  constructor(
    private readonly policy: TargetPolicy,
    config: WebhooksOutConfig,
  ) {
    this.timeoutMs = config.WEBHOOK_TIMEOUT_MS;
  }

  async send(webhook: OutgoingWebhook): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const target = this.policy.forDelivery(webhook.url);
      const answer = await post(target.url, target.lookup, webhook, this.timeoutMs);
      const succeeded = answer.status >= 200 && answer.status < 300;
      return { succeeded, responseCode: answer.status, responseBody: answer.body, durationMs: elapsed(), error: null };
    } catch (err) {
      return { succeeded: false, responseCode: null, responseBody: null, durationMs: elapsed(), error: reasonOf(err, this.timeoutMs) };
    }
  }
}

class AttemptTimedOut extends Error {}

function post(url: URL, lookup: LookupFunction | undefined, webhook: OutgoingWebhook, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let response: IncomingMessage | undefined;
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...webhook.headers, 'Content-Length': Buffer.byteLength(webhook.body).toString() },
        lookup,
        // A connection of its own, closed after the answer: nothing pooled outlives the attempt.
        agent: false,
      },
      (res) => {
        response = res;
        const kept: Buffer[] = [];
        let keptBytes = 0;
        res.on('data', (chunk: Buffer) => {
          kept.push(chunk);
          keptBytes += chunk.length;
          // Enough for the log: the rest of the body is not read.
          if (keptBytes >= LOGGED_BODY_BYTES) res.destroy();
        });
        res.on('error', () => undefined);
        res.on('close', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: loggedText(Buffer.concat(kept)) });
        });
      },
    );
    // Past the deadline without an answer the attempt fails; an answer cut short keeps its status.
    const timer = setTimeout(() => (response ? response.destroy() : request.destroy(new AttemptTimedOut())), timeoutMs);
    request.on('error', (err) => {
      if (response) return;
      clearTimeout(timer);
      reject(err);
    });
    request.end(webhook.body);
  });
}

/** The first 2 KiB as UTF-8, without a character cut in half and without NUL, which PostgreSQL text refuses. */
function loggedText(bytes: Buffer): string {
  return new StringDecoder('utf8').write(bytes.subarray(0, LOGGED_BODY_BYTES)).replaceAll('\u0000', '');
}

function reasonOf(err: unknown, timeoutMs: number): string {
  if (err instanceof AttemptTimedOut) return `no answer within ${timeoutMs} ms`;
  if (err instanceof TargetRefused) return `target refused: ${err.message}`;
  const code = (err as NodeJS.ErrnoException).code;
  const message = err instanceof Error ? err.message : String(err);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
