import { randomUUID } from 'node:crypto';
import { call, type Answer, type Call } from './support/http';
import { WholeSystem } from './support/system-all';

/**
 * Every route of the OpenAPI document, sent what careless clients and attackers send (decisions
 * B3): deep nesting, NUL, lone surrogates, wrong types, nulls, arrays for objects, huge and
 * negative numbers, crafted cursors and dates, bad cookies and bearers, over-long path
 * parameters. Not one answer may be a 500, and every error must be problem details.
 */

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  parameters: Array<{ name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema?: Schema }>;
  body?: Schema;
  security: string[];
}
interface Probe {
  label: string;
  path: string;
  query: Record<string, string | string[]>;
  body?: unknown;
  headers?: Record<string, string>;
}

const DEPTH = 5_000;
const deepArray = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const deepObject = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
const manyKeys = `{${Array.from({ length: 12_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Values put in one field at a time: wrong types, nulls, arrays for objects, bad text, extreme numbers. */
const FIELD_VALUES: Array<[string, unknown]> = [
  ['null', null],
  ['array', []],
  ['object', {}],
  ['NUL', 'a\u0000b'],
  ['lone surrogate', 'x\ud800y'],
  ['huge number', 1e308],
  ['negative number', -1],
  ['fraction', 0.5],
  ['long text', 'x'.repeat(20_000)],
  ['true', true],
];

/** Values put in one query parameter at a time. */
const QUERY_VALUES: Array<[string, string | string[]]> = [
  ['NUL', 'x\u0000y'],
  ['lone surrogate', 'x\ud800y'],
  ['empty', ''],
  ['long', 'x'.repeat(5_000)],
  ['negative', '-1'],
  ['huge', '1e400'],
  ['repeated', ['1', '2']],
  ['cursor of a number string', cursorOf(['1', randomUUID()])],
  ['cursor of an impossible date', cursorOf(['2020-02-30T00:00:00Z', randomUUID()])],
  ['cursor of garbage', cursorOf({ a: [1] })],
  ['cursor of nothing', 'AAAA'],
  ['impossible date', '2020-02-30T00:00:00Z'],
  ['week date', '2020-W01'],
];

/** Values put in one path parameter at a time. */
const PATH_VALUES: Array<[string, string]> = [
  ['NUL', '%00'],
  ['lone surrogate', '%ED%A0%80'],
  ['bad escape', '%E0%A4%A'],
  ['150 characters', 'a'.repeat(150)],
  ['5,000 characters', 'a'.repeat(5_000)],
  ['not an id', 'not-an-id'],
];

function resolveRef(document: Schema, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; s['$ref'] && i < 10; i++) s = document['components']['schemas'][String(s['$ref']).split('/').pop()!];
  if (s['allOf']) return Object.assign({}, ...s['allOf'].map((part: Schema) => resolveRef(document, part)));
  return s;
}

/** A plausible value for a schema, so that mutating one field leaves the rest valid. */
function sample(document: Schema, schema: Schema | undefined, depth = 0): unknown {
  const s = resolveRef(document, schema);
  if (s['example'] !== undefined) return s['example'];
  if (s['enum']) return s['enum'][0];
  if (s['oneOf'] || s['anyOf']) return sample(document, (s['oneOf'] ?? s['anyOf'])[0], depth);
  switch (s['type']) {
    case 'object':
      return depth > 4 ? {} : Object.fromEntries(Object.entries(s['properties'] ?? {}).map(([k, v]) => [k, sample(document, v as Schema, depth + 1)]));
    case 'array':
      return depth > 4 ? [] : [sample(document, s['items'], depth + 1)];
    case 'integer':
    case 'number':
      return s['minimum'] ?? 1;
    case 'boolean':
      return true;
    default:
      if (s['format'] === 'uuid') return randomUUID();
      if (s['format'] === 'email') return 'fuzz@example.com';
      if (s['format'] === 'date-time') return '2026-01-01T00:00:00Z';
      if (s['format'] === 'uri' || s['format'] === 'url') return 'https://all.example/a';
      return s['properties'] ? sample(document, { ...s, type: 'object' }, depth) : 'sample';
  }
}

/** Dotted paths of the leaves (and objects) of a sample body, for one-field mutations. */
function fieldPaths(value: unknown, prefix: string[] = []): string[][] {
  if (Array.isArray(value)) return value.length ? [prefix, ...fieldPaths(value[0], [...prefix, '0'])] : [prefix];
  if (value && typeof value === 'object') return [...(prefix.length ? [prefix] : []), ...Object.entries(value).flatMap(([k, v]) => fieldPaths(v, [...prefix, k]))];
  return [prefix];
}

function withField(body: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: any = Array.isArray(body) ? [...body] : { ...(body as object) };
  copy[path[0]] = withField(copy[path[0]], path.slice(1), value);
  return copy;
}

function operationsOf(document: Schema): Operation[] {
  return Object.entries(document['paths'] as Record<string, Record<string, Schema>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      parameters: op['parameters'] ?? [],
      body: op['requestBody']?.content?.['application/json']?.schema,
      security: (op['security'] ?? []).flatMap((s: Schema) => Object.keys(s)),
    })),
  );
}

/**
 * Path parameters name real records where the list above them has one (so a mutated body reaches
 * the record's own checks), except on DELETE, which would take them from the other probes.
 */
function probesOf(document: Schema, op: Operation, ids: Map<string, string>): Probe[] {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const known = (name: string) => (op.method === 'DELETE' ? undefined : ids.get(op.path.slice(0, op.path.indexOf(`/{${name}}`))));
  const pathWith = (name?: string, raw?: string) =>
    op.path.replace(/\{(\w+)\}/g, (_, p: string) =>
      p === name ? raw! : encodeURIComponent(known(p) ?? String(sample(document, pathParams.find((x) => x.name === p)?.schema ?? { format: 'uuid' }))),
    );
  const baseQuery = Object.fromEntries(queryParams.filter((p) => p.required).map((p) => [p.name, String(sample(document, p.schema))]));
  const baseBody = op.body ? sample(document, op.body) : undefined;
  const base: Probe = { label: 'plausible', path: pathWith(), query: baseQuery, body: baseBody };
  const probes: Probe[] = [base];
  for (const p of pathParams) for (const [label, raw] of PATH_VALUES) probes.push({ ...base, label: `path ${p.name}: ${label}`, path: pathWith(p.name, raw) });
  for (const p of queryParams) for (const [label, value] of QUERY_VALUES) probes.push({ ...base, label: `query ${p.name}: ${label}`, query: { ...baseQuery, [p.name]: value } });
  probes.push({ ...base, label: 'bad session cookie', headers: { Cookie: 'service_session=%E0%A4%A' } });
  probes.push({ ...base, label: 'garbage bearer', headers: { Authorization: 'Bearer garbage' } });
  if (op.body || ['POST', 'PUT', 'PATCH'].includes(op.method)) {
    for (const [label, raw] of [
      ['deep array', deepArray],
      ['deep object', deepObject],
      ['12,000 keys', manyKeys],
      ['array for the body', '[]'],
      ['null body', 'null'],
      ['string body', '"x"'],
      ['NUL in a key', '{"a\\u0000":1}'],
      ['lone surrogate in a key', '{"\\ud800":1}'],
    ])
      probes.push({ ...base, label: `body: ${label}`, body: raw });
    for (const field of fieldPaths(baseBody)) {
      if (field.length === 0) continue;
      for (const [label, value] of FIELD_VALUES) probes.push({ ...base, label: `body ${field.join('.')}: ${label}`, body: JSON.stringify(withField(baseBody, field, value)) });
    }
  }
  return probes;
}

/** Credentials spread over several identities, so rate limits never stand between a probe and its route. */
class Credentials {
  private turn = 0;
  constructor(
    readonly sessions: string[],
    readonly keys: Array<{ publishableKey: string; secretKey: string }>,
    readonly tokens: string[],
  ) {}

  next(): { session: string; keys: { publishableKey: string; secretKey: string }; token: string } {
    const i = this.turn++;
    return { session: this.sessions[i % this.sessions.length], keys: this.keys[i % this.keys.length], token: this.tokens[i % this.keys.length] };
  }
}

const FUZZ_TIMEOUT = 900_000;

describe('every route of the OpenAPI document under hostile input', () => {
  let system: WholeSystem;
  let document: Schema;
  let credentials: Credentials;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    system = await WholeSystem.start({ everyService: true, gatewayEnv: { TRUST_PROXY: '1' } });
    document = (await call(system.url, '/docs/json')).body;
    const sessions = [system.session, ...(await Promise.all(Array.from({ length: 23 }, async () => (await system.staffSession('admin', system.publicationId)).session)))];
    const keys = [{ publishableKey: system.publishableKey, secretKey: system.secretKey }];
    for (let i = 0; i < 11; i++) keys.push((await system.admin('/admin/api-keys', { body: { name: `fuzz-${i}` } })).body);
    const tokens: string[] = [];
    for (const pair of keys) {
      const registered = await call(system.url, '/api/v1/auth/customers/register', {
        key: pair.publishableKey,
        body: { email: `fuzz-${randomUUID()}@example.com`, password: 'fuzz-password', name: 'Fuzz' },
      });
      tokens.push(registered.body.accessToken);
    }
    credentials = new Credentials(sessions, keys, tokens);
    // One record of each kind, whose ids the lists then hand out.
    const wall = await system.paywall({ name: 'Fuzz wall', type: 'hard', match: { include: ['/fuzz/**'] } });
    const product = await system.product({ name: 'Fuzz product', entitlements: [wall.id] });
    const price = await system.price(product.id, { currency: 'usd', unitAmount: 500, interval: 'month' });
    await system.grant(await system.reader(), price.id);
    for (const [path, methods] of Object.entries(document['paths'] as Record<string, Schema>)) {
      if (!methods['get'] || path.includes('{')) continue;
      const list = await call(system.url, path, { session: system.session, key: system.secretKey });
      const first = list.body?.items?.[0] ?? list.body?.[0];
      if (typeof first?.id === 'string') ids.set(path, first.id);
    }
  }, 180_000);

  afterAll(async () => {
    await system?.close();
  });

  it(
    'never answers 500, and answers every refusal with problem details',
    async () => {
      const operations = operationsOf(document);
      expect(operations.length).toBeGreaterThan(40);
      const failures: string[] = [];
      let sent = 0;
      for (const op of operations) {
        // Logging out ends the session the other probes use: it gets sessions of its own.
        const ownSession = op.method === 'DELETE' && op.path === '/api/v1/admin/session';
        // Which key a key route wants is found by asking once with the publishable key, which is
        // counted per client address (the secret key alone is one identity for every address).
        let useSecret = false;
        for (const probe of probesOf(document, op, ids)) {
          const who = credentials.next();
          const headers: Record<string, string> = { 'X-Forwarded-For': `198.51.100.${sent % 250}`, ...probe.headers };
          const options: Call = { method: op.method, headers };
          if (op.security.includes('adminSession')) options.session = ownSession ? (await system.staffSession('admin', system.publicationId)).session : who.session;
          else if (op.security.includes('apiKey')) options.key = useSecret ? who.keys.secretKey : who.keys.publishableKey;
          if (op.security.includes('customerJwt') && !op.security.includes('adminSession')) {
            options.key = who.keys.publishableKey;
            options.token = who.token;
          }
          if (probe.headers?.['Cookie']) options.session = undefined;
          if (probe.headers?.['Authorization']) options.token = undefined;
          if (probe.body !== undefined) options.body = probe.body;
          else if (['POST', 'PUT', 'PATCH'].includes(op.method) && op.body) options.body = '{}';
          const search = new URLSearchParams();
          for (const [name, value] of Object.entries(probe.query)) for (const v of [value].flat()) search.append(name, v);
          const qs = search.toString();
          let answer: Answer;
          try {
            answer = await call(system.url, `${probe.path}${qs ? `?${qs}` : ''}`, options);
            // A limit the spread of identities did not avoid: the probe waits its window out, as a client would, and goes again once.
            if (answer.status === 429) {
              await new Promise((resume) => setTimeout(resume, Math.min(61, Number(answer.headers.get('retry-after') ?? 1)) * 1000));
              answer = await call(system.url, `${probe.path}${qs ? `?${qs}` : ''}`, options);
            }
          } catch (err) {
            failures.push(`${op.method} ${op.path} [${probe.label}]: no answer (${(err as Error).message})`);
            continue;
          }
          sent++;
          if (probe.label === 'plausible' && answer.status === 403 && answer.body?.code === 'api_key_wrong_kind') useSecret = true;
          const type = answer.headers.get('content-type') ?? '';
          const problem = answer.body && typeof answer.body === 'object' && typeof answer.body.code === 'string' && answer.body.status === answer.status;
          if (answer.status >= 500) failures.push(`${op.method} ${op.path} [${probe.label}]: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
          else if (answer.status >= 400 && (!type.startsWith('application/problem+json') || !problem || !answer.headers.get('x-request-id'))) {
            failures.push(`${op.method} ${op.path} [${probe.label}]: ${answer.status} not problem details: ${type} ${JSON.stringify(answer.body).slice(0, 200)}`);
          }
          if (answer.status === 429) failures.push(`${op.method} ${op.path} [${probe.label}]: rate limited, the probe never reached the route`);
        }
      }
      expect(sent).toBeGreaterThan(1_000);
      expect(failures).toEqual([]);
    },
    FUZZ_TIMEOUT,
  );
});
