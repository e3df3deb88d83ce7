import { GatehouseError } from './errors';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** A customer access token, sent as `Authorization: Bearer`. */
  token?: string | null;
  /** Lets the request outlive the page (events sent on `pagehide`). */
  keepalive?: boolean;
}

/** The gateway's `/api/v1` with the publishable key; answers parsed, failures as `GatehouseError`. */
export class Api {
  constructor(
    private readonly baseUrl: string,
    private readonly publishableKey: string,
    private readonly fetcher: typeof fetch,
  ) {}

  async request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(`${this.baseUrl}/api/v1${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined && value !== '') url.searchParams.set(name, value);
    const headers: Record<string, string> = { 'X-API-Key': this.publishableKey };
    if (options.token) headers['Authorization'] = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetcher(url.toString(), {
        method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        keepalive: options.keepalive,
        credentials: 'omit',
      });
    } catch {
      throw new GatehouseError('service_unavailable', 0, 'The service could not be reached.');
    }
    const text = await response.text().catch(() => '');
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const error = GatehouseError.fromProblem(response.status, body);
      const retryAfter = Number(response.headers.get('Retry-After'));
      if (retryAfter > 0) error.retryAfterMs = retryAfter * 1000;
      throw error;
    }
    return body as T;
  }
}
