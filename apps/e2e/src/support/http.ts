export interface Call {
  method?: string;
  /** X-API-Key */
  key?: string;
  /** Bearer access token */
  token?: string;
  /** The admin session cookie value */
  session?: string;
  origin?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** Called with every answer `call` gets, e.g. to check it against the OpenAPI document. */
export type AnswerObserver = (request: { base: string; method: string; path: string }, answer: Answer) => void;
const observers = new Set<AnswerObserver>();

/** Observes every answer from now on; returns the function that stops it. */
export function observeAnswers(observer: AnswerObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/** One HTTP call to the gateway, as a browser, a publisher's server or the dashboard would make it. */
export async function call<T = any>(base: string, path: string, options: Call = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['X-API-Key'] = options.key;
  if (options.token !== undefined) headers['Authorization'] = `Bearer ${options.token}`;
  if (options.session !== undefined) headers['Cookie'] = `service_session=${options.session}`;
  if (options.origin !== undefined) headers['Origin'] = options.origin;
  if (options.body !== undefined) headers['Content-Type'] ??= 'application/json';
  const res = await fetch(`${base}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  const answer = { status: res.status, body: body as T, headers: res.headers };
  for (const observer of observers) observer({ base, method: options.method ?? (options.body === undefined ? 'GET' : 'POST'), path }, answer);
  return answer;
}

/** The session token from a Set-Cookie answer. */
export function sessionFrom(answer: Answer): string {
  const cookie = answer.headers.get('set-cookie') ?? '';
  const match = /service_session=([^;]*)/.exec(cookie);
  if (!match) throw new Error(`no session cookie in: ${cookie}`);
  return match[1];
}
