import type { ProblemDetails } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import { GatehouseApiError, GatehouseConnectionError } from './errors';

export interface TransportOptions {
  /** The gateway's origin, e.g. `https://gatehouse.example.com`. */
  baseUrl: string;
  /** Per attempt. Default 10 000 ms. */
  timeoutMs?: number;
  /** Further attempts after a 429, a 5xx or a connection failure. Default 2. */
  maxRetries?: number;
  /** The first backoff; doubled per retry, with jitter. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** The longest wait the client accepts from `Retry-After`; longer ones fail at once. Default 60 s. */
  maxRetryDelayMs?: number;
  /** For tests and runtimes with their own fetch. */
  fetch?: typeof fetch;
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** A body sent as it is (a file) with its media type, instead of `body` as JSON. */
  file?: { contentType: string; content: string };
  /** The answer's body as text (a CSV file) rather than parsed JSON. */
  answersText?: boolean;
  /** None for the routes that take no key (the JWKS). */
  apiKey?: string;
  accessToken?: string;
  /**
   * Writes the API de-duplicates by `Idempotency-Key`: one key per call, the same on every retry,
   * so a retried write takes effect once. Other writes are retried only after a 429.
   */
  idempotent?: boolean;
  headers?: Record<string, string>;
}

const RETRYABLE = (status: number) => status === 429 || status >= 500;

/** One HTTP request with timeouts, retries with backoff honouring `Retry-After`, and problem-details errors. */
export class Transport {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly fetch: typeof fetch;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.baseDelayMs = options.retryBaseDelayMs ?? 500;
    this.maxDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.fetch = options.fetch ?? fetch;
  }

  async request<T>(request: ApiRequest): Promise<T> {
    const url = new URL(`${this.baseUrl}/api/v1${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { Accept: 'application/json', ...(request.apiKey ? { 'X-API-Key': request.apiKey } : {}), ...request.headers };
    if (request.accessToken) headers['Authorization'] = `Bearer ${request.accessToken}`;
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    if (request.file) headers['Content-Type'] = request.file.contentType;
    if (request.idempotent) headers['Idempotency-Key'] ??= randomUUID();
    const safeToRepeat = request.method === 'GET' || request.method === 'DELETE' || request.idempotent === true;

    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetch(url, {
          method: request.method,
          headers,
          body: request.file ? request.file.content : request.body === undefined ? undefined : JSON.stringify(request.body),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (cause) {
        if (attempt < this.maxRetries && safeToRepeat) {
          await sleep(this.backoff(attempt));
          continue;
        }
        const what = (cause as Error).name === 'TimeoutError' ? `timed out after ${this.timeoutMs} ms` : (cause as Error).message;
        throw new GatehouseConnectionError(`${request.method} ${url.pathname}: ${what}`, { cause });
      }
      if (response.ok) {
        const text = await response.text();
        return (request.answersText ? text : text ? JSON.parse(text) : undefined) as T;
      }
      const retryAfter = retryAfterMs(response.headers.get('retry-after'));
      // A 429 was refused before anything happened; a 5xx may have half-happened, so only repeatable requests go again.
      const mayRetry = RETRYABLE(response.status) && (response.status === 429 || safeToRepeat) && attempt < this.maxRetries;
      if (mayRetry && (retryAfter === null || retryAfter <= this.maxDelayMs)) {
        await response.body?.cancel();
        await sleep(retryAfter ?? this.backoff(attempt));
        continue;
      }
      throw new GatehouseApiError(await problemOf(response), response.headers.get('x-request-id'));
    }
  }

  private backoff(attempt: number): number {
    const delay = Math.min(this.baseDelayMs * 2 ** attempt, this.maxDelayMs);
    return delay / 2 + Math.random() * (delay / 2);
  }
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds; null when absent or unreadable. */
function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

async function problemOf(response: Response): Promise<ProblemDetails> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as ProblemDetails;
    if (typeof body.code === 'string') return body;
  } catch {
    // not problem details: described below
  }
  return { type: 'about:blank', title: response.statusText, status: response.status, detail: text.slice(0, 500), code: response.status === 503 ? 'service_unavailable' : 'internal_error' };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
