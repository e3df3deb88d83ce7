import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Answer } from './http';

type Schema = Record<string, any>;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

export interface Mismatch {
  operation: string;
  status: number;
  problem: string;
}

/**
 * The OpenAPI document as a judge of real answers: each answer must be a documented status of its
 * operation, with the documented media type, and its body must match the documented schema, with
 * no field the document does not name.
 */
export class ApiConformance {
  readonly mismatches: Mismatch[] = [];
  /** `GET /api/v1/x 200`, for each answer checked. */
  readonly seen = new Set<string>();
  /** The first JSON body of each operation's success, for the generated client's type check. */
  readonly samples = new Map<string, { method: string; template: string; status: number; body: unknown }>();
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly operations: Operation[] = [];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: Schema) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: { schemas: strictSchemas(document['components'].schemas) } });
    for (const [template, item] of Object.entries<Record<string, any>>(document['paths'])) {
      const pattern = new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const [method, operation] of Object.entries(item)) {
        this.operations.push({ method: method.toUpperCase(), template, pattern, responses: operation.responses });
      }
    }
  }

  /** Every operation and documented status, as `seen` names them. */
  get documented(): string[] {
    return this.operations.flatMap((op) => Object.keys(op.responses).map((status) => `${op.method} ${op.template} ${status}`));
  }

  check(method: string, path: string, answer: Answer): void {
    const pathname = path.split('?')[0];
    const candidates = this.operations.filter((op) => op.method === method && op.pattern.test(pathname));
    // A literal segment wins over a parameter (`/api-keys/pairs/{name}` over `/api-keys/{id}`).
    const operation = candidates.sort((a, b) => b.template.replace(/\{[^}]+\}/g, '').length - a.template.replace(/\{[^}]+\}/g, '').length)[0];
    if (!operation) return; // not an API route (e.g. an unknown path answering 404)
    const name = `${method} ${operation.template}`;
    const status = String(answer.status);
    this.seen.add(`${name} ${status}`);
    const response = operation.responses[status];
    if (!response) return void this.mismatches.push({ operation: name, status: answer.status, problem: `undocumented status; body ${JSON.stringify(answer.body)}` });
    const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0];
    if (!response.content) {
      if (answer.body !== undefined && answer.body !== '') this.mismatches.push({ operation: name, status: answer.status, problem: `documented without a body, got ${JSON.stringify(answer.body)}` });
      return;
    }
    if (answer.status < 300 && mediaType === 'application/json' && !this.samples.has(`${name} ${status}`)) {
      this.samples.set(`${name} ${status}`, { method: method.toLowerCase(), template: operation.template, status: answer.status, body: answer.body });
    }
    const documented = response.content[mediaType];
    if (!documented) return void this.mismatches.push({ operation: name, status: answer.status, problem: `media type ${mediaType}, documented ${Object.keys(response.content)}` });
    const key = `${name} ${status} ${mediaType}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(documented.schema, false));
      this.validators.set(key, validate);
    }
    if (!validate(answer.body)) {
      this.mismatches.push({ operation: name, status: answer.status, problem: `${this.ajv.errorsText(validate.errors)}; body ${JSON.stringify(answer.body).slice(0, 500)}` });
    }
  }
}

/**
 * Generates TypeScript types from the document with a standard generator (openapi-typescript) and
 * type-checks every recorded body against the type generated for its operation and status, as a
 * client generated from /docs/json would receive it. Returns the compiler's complaints ('' when none).
 */
export async function typeCheckGeneratedClient(document: Schema, samples: Iterable<{ method: string; template: string; status: number; body: unknown }>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-client-'));
  const run = promisify(execFile);
  try {
    // The generator's own Node process: its ES-module dependencies load there, not in Jest's module system.
    await writeFile(join(dir, 'openapi.json'), JSON.stringify(document));
    const generator = `const { default: generate, astToString } = require('openapi-typescript');
      const [input, output] = process.argv.slice(1);
      generate(JSON.parse(require('fs').readFileSync(input, 'utf8'))).then((ast) => require('fs').writeFileSync(output, astToString(ast)));`;
    await run(process.execPath, ['-e', generator, join(dir, 'openapi.json'), join(dir, 'api.ts')], { cwd: join(__dirname, '../../../..') });
    const checks = [...samples].map(
      ({ method, template, status, body }, i) =>
        `export const answer${i}: paths[${JSON.stringify(template)}][${JSON.stringify(method)}]['responses'][${status}]['content']['application/json'] = ${JSON.stringify(body)};`,
    );
    await writeFile(join(dir, 'answers.ts'), `import type { paths } from './api';\n${checks.join('\n')}\n`);
    const tsc = join(__dirname, '../../../../node_modules/typescript/bin/tsc');
    const args = ['--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'commonjs', join(dir, 'answers.ts')];
    return await run(process.execPath, [tsc, ...args], { cwd: dir, maxBuffer: 10 * 1024 * 1024 }).then(
      () => '',
      (failure: { stdout: string }) => failure.stdout,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function strictSchemas(schemas: Record<string, Schema>): Record<string, Schema> {
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, toJsonSchema(schema, true)]));
}

/**
 * OpenAPI 3.0 schema → JSON Schema: `nullable` becomes a null alternative, references point into
 * the registered document, and (`strict`) an object with named properties admits no other.
 */
function toJsonSchema(schema: Schema, strict: boolean): Schema {
  if (Array.isArray(schema)) return schema.map((item) => toJsonSchema(item, strict)) as unknown as Schema;
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref') out[key] = `openapi${value}`;
    else if (key === 'properties') out[key] = Object.fromEntries(Object.entries<Schema>(value).map(([p, s]) => [p, toJsonSchema(s, true)]));
    // Members of allOf add constraints to one object: none of them may close it.
    else if (key === 'allOf') out[key] = value.map((member: Schema) => toJsonSchema(member, false));
    else if (['items', 'additionalProperties', 'oneOf', 'anyOf'].includes(key)) out[key] = toJsonSchema(value, true);
    else if (key !== 'nullable' && key !== 'example') out[key] = value;
  }
  if (strict && out['properties'] && out['additionalProperties'] === undefined) out['additionalProperties'] = false;
  if (schema['nullable'] === true) {
    if (out['enum']) out['enum'] = [...out['enum'], null];
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}
