import {
  applyDecorators,
  HttpStatus,
  Inject,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { ApiHeader } from '@nestjs/swagger';
import type { ProblemDetails } from '@gatehouse/contracts';
import { BusClient, withRequestPatience } from '@gatehouse/bus';
import { AppError, isProblem, SecretBox, sha256Hex } from '@gatehouse/platform';
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { lastValueFrom, of, type Observable } from 'rxjs';
import type { RequestWithPrincipal } from './principal';
import type { RedisOrMemory } from './redis-or-memory';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
/** How long a first answer is kept for replays. */
const ANSWER_TTL_MS = 24 * 60 * 60_000;
/** How long the outcome of a write whose caller was already answered 503 is still awaited. */
const LATE_ANSWER_WAIT_MS = 60_000;
const POLL_MS = 100;
/** A claim whose gateway died before storing an answer frees the key after this long. */
const PENDING_TTL_MS = LATE_ANSWER_WAIT_MS + 10_000;

/** A finished first answer: what its caller got, or would have got had it waited. */
export interface StoredAnswer {
  status: number;
  body?: unknown;
  problem?: ProblemDetails;
}

/**
 * A claimed key: the request's fingerprint and, once finished, its answer sealed with a key only a
 * retry presenting the same Idempotency-Key can derive, so answers carrying tokens (a registration's
 * refresh token) are never kept in clear, in Redis or in memory.
 */
type Entry = { fingerprint: string; answer?: string };

/** Where first answers are kept: per gateway process, or in Redis shared by every replica. */
export interface IdempotencyStore {
  /** Claims the key for a first attempt (true), or returns the entry another attempt claimed. */
  claim(key: string, fingerprint: string): Promise<true | Entry>;
  get(key: string): Promise<Entry | undefined>;
  finish(key: string, entry: Entry): Promise<void>;
  release(key: string): Promise<void>;
}

export const IDEMPOTENCY_STORE = Symbol('IDEMPOTENCY_STORE');

/**
 * Entries that all live equally long, in a map kept in the order they expire (insertion order,
 * re-inserted on each write), so expired ones are evicted from the front as time passes.
 */
class AgedEntries {
  private readonly entries = new Map<string, { entry: Entry; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  get size(): number {
    this.evict();
    return this.entries.size;
  }

  get(key: string): Entry | undefined {
    this.evict();
    return this.entries.get(key)?.entry;
  }

  set(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, { entry, expires: this.now() + this.ttlMs });
    this.evict();
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  private evict(): void {
    const now = this.now();
    for (const [key, { expires }] of this.entries) {
      if (expires > now) return;
      this.entries.delete(key);
    }
  }
}

/** Per gateway process: claims for PENDING_TTL_MS, answers for ANSWER_TTL_MS, each evicted once its time is up. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly pending: AgedEntries;
  private readonly answered: AgedEntries;

  constructor(now: () => number = Date.now) {
    this.pending = new AgedEntries(PENDING_TTL_MS, now);
    this.answered = new AgedEntries(ANSWER_TTL_MS, now);
  }

  /** Entries held, expired ones evicted. */
  get size(): number {
    return this.pending.size + this.answered.size;
  }

  async claim(key: string, fingerprint: string): Promise<true | Entry> {
    const existing = await this.get(key);
    if (existing) return existing;
    this.pending.set(key, { fingerprint });
    return true;
  }

  async get(key: string): Promise<Entry | undefined> {
    return this.answered.get(key) ?? this.pending.get(key);
  }

  async finish(key: string, entry: Entry): Promise<void> {
    this.pending.delete(key);
    this.answered.set(key, entry);
  }

  async release(key: string): Promise<void> {
    this.pending.delete(key);
    this.answered.delete(key);
  }
}

/** Answers shared by every replica through Redis; this replica's own while Redis is away. */
export class RedisIdempotencyStore implements IdempotencyStore {
  private readonly fallback = new MemoryIdempotencyStore();

  constructor(private readonly store: RedisOrMemory) {}

  async claim(key: string, fingerprint: string): Promise<true | Entry> {
    return this.store.run(
      async (redis) => {
        const claimed = await redis.set(this.key(key), JSON.stringify({ fingerprint }), 'PX', PENDING_TTL_MS, 'NX');
        return claimed === 'OK' ? true : ((await this.get(key)) ?? this.claim(key, fingerprint));
      },
      () => this.fallback.claim(key, fingerprint),
    );
  }

  get(key: string): Promise<Entry | undefined> {
    return this.store.run(
      async (redis) => {
        const raw = await redis.get(this.key(key));
        return raw ? (JSON.parse(raw) as Entry) : undefined;
      },
      () => this.fallback.get(key),
    );
  }

  finish(key: string, entry: Entry): Promise<void> {
    return this.store.run(
      async (redis) => void (await redis.set(this.key(key), JSON.stringify(entry), 'PX', ANSWER_TTL_MS)),
      () => this.fallback.finish(key, entry),
    );
  }

  release(key: string): Promise<void> {
    return this.store.run(
      async (redis) => void (await redis.del(this.key(key))),
      () => this.fallback.release(key),
    );
  }

  close(): Promise<void> {
    return this.store.close();
  }

  private key(key: string): string {
    return `idempotency:${key}`;
  }
}

/**
 * `Idempotency-Key` on a write: the first answer for a key (per caller and route) is stored for
 * 24 h and replayed to every retry with the same key and body. A first attempt whose bus call
 * outlasts the request timeout answers 503, but its outcome is still awaited and stored, so the
 * retry learns what happened instead of meeting `email_taken` or a second grant; a retry arriving
 * while the first is still running waits for it. The same key with another body is 409 `conflict`.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    @Inject(IDEMPOTENCY_STORE) private readonly store: IdempotencyStore,
    private readonly bus: BusClient,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const given = request.headers[IDEMPOTENCY_HEADER];
    if (given === undefined) return next.handle();
    if (typeof given !== 'string' || !KEY_FORMAT.test(given)) {
      throw AppError.invalid('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
    }
    const principal = request.principal ?? {};
    const caller = [principal.apiKey?.keyId, principal.session?.staffId, principal.session?.publicationId, principal.customer?.customerId].join('|');
    const key = sha256Hex(`${caller}\n${request.method} ${request.routeOptions.url}\n${given}`);
    const box = SecretBox.fromBase64(createHash('sha256').update(`seal\n${caller}\n${request.method} ${request.routeOptions.url}\n${given}`).digest('base64'));
    // Fields in another order are the same request.
    const fingerprint = sha256Hex(canonicalJson([request.params, request.query, request.body ?? null]));
    const seal = (answer: StoredAnswer) => box.encrypt(JSON.stringify(answer));

    const claimed = await this.store.claim(key, fingerprint).catch(() => {
      throw new AppError('service_unavailable', 'Idempotency-Key answers cannot be stored right now: retry.');
    });
    if (claimed !== true) return this.replay(await this.waitForAnswer(key, claimed), fingerprint, box, reply);

    const outcome = withRequestPatience(LATE_ANSWER_WAIT_MS, () => lastValueFrom(next.handle(), { defaultValue: undefined })).then(
      async (body) => {
        // The write happened: its caller gets the answer even if it cannot be kept for replays.
        await this.store.finish(key, { fingerprint, answer: seal({ status: successStatus(context), body }) }).catch(() => undefined);
        return body;
      },
      async (err: unknown) => {
        const problem = err instanceof AppError ? err.problem : isProblem(err) ? err : undefined;
        // Unreachable services did nothing: the retry runs afresh. Any other answer is final.
        const settled = !problem || problem.code === 'service_unavailable' ? this.store.release(key) : this.store.finish(key, { fingerprint, answer: seal({ status: problem.status, problem }) });
        await settled.catch(() => undefined);
        throw err;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const tooLate = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new AppError('service_unavailable', 'The request is still being processed: retry with the same Idempotency-Key to get its answer.')),
        this.bus.timeoutMs,
      );
    });
    outcome.catch(() => undefined);
    try {
      const body = await Promise.race([outcome, tooLate]);
      return of(body);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The first attempt's answer, waiting (up to the request timeout) while it is still running. */
  private async waitForAnswer(key: string, entry: Entry): Promise<Entry> {
    const deadline = Date.now() + this.bus.timeoutMs;
    let current: Entry | undefined = entry;
    while (current && !current.answer && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      current = await this.store.get(key).catch(() => current);
    }
    if (!current) throw new AppError('service_unavailable', 'The first attempt with this Idempotency-Key did not complete: retry.');
    return current;
  }

  private replay(entry: Entry, fingerprint: string, box: SecretBox, reply: FastifyReply): Observable<unknown> {
    if (entry.fingerprint !== fingerprint) {
      throw new AppError('conflict', 'This Idempotency-Key was used with a different request.');
    }
    if (!entry.answer) {
      throw new AppError('service_unavailable', 'The first attempt with this Idempotency-Key is still being processed: retry.');
    }
    const answer = JSON.parse(box.decrypt(entry.answer)) as StoredAnswer;
    if (answer.problem) throw AppError.fromProblem(answer.problem);
    void reply.status(answer.status).header('Idempotent-Replayed', 'true');
    return of(answer.body);
  }
}

/** JSON with every object's keys sorted, so two bodies that differ only in field order compare equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}

/**
 * The status Nest sends for a successful result: its @HttpCode, or 201 for POST. (Not the reply's
 * own: when the first attempt answered 503, the reply already carries that.)
 */
function successStatus(context: ExecutionContext): number {
  const declared = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined;
  return declared ?? (context.switchToHttp().getRequest<RequestWithPrincipal>().method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK);
}

/** Accepts an `Idempotency-Key` header on this write (see IdempotencyInterceptor). */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Any unique string (1–255 visible ASCII characters, e.g. a UUID). A retry with the same key and body within 24 h gets the first answer again (`Idempotent-Replayed: true`), even when the first attempt answered 503 after a timeout; the same key with another body is 409 `conflict`.',
    }),
  );
}
