// The account's limits as one client knows them: read once from the paid /catalog (or /research/catalog
// for a key without a plan), or taken from an earlier client's (ClientOptions.knownLimits with `current`),
// sizing the key's limiter, and the byte-budget check every paid file passes.

import { PLANS } from '../contract/index.js';
import type { ByteBudget } from './byte-budget.js';
import { assumedLimits, limitsFromDocument, type LimitsOutcome } from './account-limits.js';
import {
  AbortedError,
  ApiNotFoundError,
  ByteBudgetError,
  ConflictError,
  ForbiddenError,
  ImpossibleSizeError,
  ServiceUnavailableError,
  UnexpectedResponseError,
  ValidationError,
} from './client-errors.js';
import type { ResolvedClientOptions } from './client-options.js';
import { displayPath } from './http-transport.js';
import type { AccountLimits } from './client-types.js';
import { messages } from './messages.js';
import type { Notify } from './notice-sink.js';

/**
 * `pending`, or an AbortedError naming `path` once `signal` aborts first. A listing's Ctrl-C had waited for the
 * account's limits (/catalog, seconds on a slow service or a new home's embedded mock) before it was heard.
 */
function untilAborted<T>(pending: Promise<T>, signal: AbortSignal | undefined, path: string): Promise<T> {
  if (signal === undefined) return pending;
  const aborted = () => new AbortedError(messages.aborted(path));
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The largest daily byte allowance of the spec's plans: no download larger than this (or the reported allowance) can ever fit. */
const LARGEST_DAILY_BYTES = Math.max(...Object.values(PLANS).map((plan) => plan.daily_bytes));

/** `AccountLimits.origin` of limits kept from an earlier client (ClientOptions.knownLimits). */
export const KNOWN_LIMITS_ORIGIN = '/catalog, as an earlier command read it';

/** What the paid /catalog told this client: the account limits (reported or assumed), or the 403 of a key without a plan. */
type PaidLimits = { limits: AccountLimits; refusal?: undefined } | { refusal: ForbiddenError };

/**
 * What ClientLimits asks of its client (ClientCore): the key check, the paid requests, notices, the byte budget
 * and the size of the key's limiter. Declared here so the client's core builds its limits without a circle of files.
 */
export interface LimitsClient {
  readonly options: Pick<ResolvedClientOptions, 'knownLimits' | 'onLimits'>;
  readonly notify: Notify;
  readonly budget: ByteBudget;
  apiUrl(path: string): string;
  getJson<T>(url: string): Promise<T>;
  requireKey(what: string): void;
  setAccountRpm(rpm: number, known: boolean): void;
}

/** One client's account limits: fetched once, shared by its scopes. */
export class ClientLimits {
  readonly #core: LimitsClient;
  /** The paid /catalog's answer, fetched once per client (a 403 is asked again on the next paid call). */
  #paid: Promise<PaidLimits> | undefined;
  /** Limits of a key without a paid plan, from /research/catalog (limits() only). */
  #free: Promise<AccountLimits> | undefined;
  /** Set once the known limits were found wanting (a local budget refusal): the service is asked instead. */
  #knownSetAside = false;

  constructor(core: LimitsClient) {
    this.#core = core;
  }

  /**
   * The account's limits: from the paid /catalog (in any shape; what it does not say is assumed from the
   * spec's plan table and announced), or from /research/catalog for a key without a plan. Cached per client.
   * Throws the auth error for a 401, or a 403 on both catalogs.
   */
  async read(): Promise<AccountLimits> {
    const paid = await this.#paidLimits();
    if (paid.refusal === undefined) return { ...paid.limits };
    if (this.#free === undefined) {
      const pending = this.#readFreeLimits();
      this.#free = pending;
      pending.catch(() => {
        if (this.#free === pending) this.#free = undefined;
      });
    }
    return { ...(await this.#free) };
  }

  /** Takes the limits from a paid /catalog the caller already read, unless this client has them (or is reading them). */
  adoptCatalog(catalog: unknown): void {
    this.#paid ??= Promise.resolve(this.#adopt(limitsFromDocument(catalog, '/catalog')));
  }

  /**
   * Before paid calls: the account limits (one /catalog per client) sizing the limiter. A key the paid
   * /catalog refused (403) fails here with that ForbiddenError (exit 4) before anything else is read; the
   * refusal is not cached, so a plan activated later is seen by the next paid call. A caller's `signal` ends its
   * wait for /catalog (AbortedError), as it ends the request it guards; the read goes on for other callers.
   */
  async ensure(signal?: AbortSignal): Promise<AccountLimits> {
    this.#core.requireKey('The Market Events scope');
    const known = this.#currentKnown();
    if (known !== undefined) return known;
    const pending = this.#paidLimits();
    const paid = await untilAborted(pending, signal, displayPath(this.#core.apiUrl('/catalog')));
    if (paid.refusal !== undefined) {
      if (this.#paid === pending) this.#paid = undefined;
      throw paid.refusal;
    }
    this.#core.setAccountRpm(paid.limits.rpm, paid.limits.source === 'reported');
    return paid.limits;
  }

  /**
   * Refuses before sending when today's remaining byte budget cannot hold `needed` bytes (or is used up),
   * and (ImpossibleSizeError, exit 3) when no daily allowance could ever hold them.
   * With `daily_bytes` unknown there is no local pre-check, unless the service's daily 429 already marked
   * today as used up.
   */
  async checkBudget(what: string, needed: number | undefined): Promise<void> {
    const limits = await this.ensure();
    // A size beyond every daily allowance is a wrong statement (exit 3), not a budget to wait for (exit 5).
    // With the allowance unknown there is no bound: the service decides (as for the budget itself).
    if (needed !== undefined && limits.daily_bytes !== undefined) {
      const ceiling = Math.max(LARGEST_DAILY_BYTES, limits.daily_bytes);
      if (needed > ceiling) throw new ImpossibleSizeError(messages.impossibleSize(what, needed, ceiling));
    }
    const { budget } = this.#core;
    const remaining = await budget.remaining(limits.daily_bytes);
    if ((needed ?? 1) > remaining || remaining <= 0) {
      // Kept limits may predate a plan change: ask the service before refusing on them.
      if (limits.origin === KNOWN_LIMITS_ORIGIN) {
        this.#knownSetAside = true;
        return this.checkBudget(what, needed);
      }
      const next = budget.next();
      throw new ByteBudgetError(messages.byteBudgetLocal(what, needed, remaining, next.day), {
        nextUtcDay: next.day,
        retryAfter: next.seconds,
      });
    }
  }

  /**
   * The account's limits for pacing and budgets: those kept from an earlier client when current (no request),
   * else what `read()` answers.
   */
  async current(): Promise<AccountLimits> {
    return this.#currentKnown() ?? this.read();
  }

  /** ClientOptions.knownLimits as the account's limits, while `current` and nothing fresher was read. */
  #currentKnown(): AccountLimits | undefined {
    const known = this.#core.options.knownLimits;
    if (known?.current !== true || this.#knownSetAside || this.#paid !== undefined) return undefined;
    return { keys: known.keys, rpm: known.rpm, daily_bytes: known.daily_bytes, source: 'reported', origin: KNOWN_LIMITS_ORIGIN };
  }

  /** The paid /catalog's answer, once per client; a 401 (and a network failure) is thrown and asked again next time. */
  #paidLimits(): Promise<PaidLimits> {
    if (this.#paid === undefined) {
      this.#core.requireKey('The account limits');
      const pending = this.#readPaidLimits();
      this.#paid = pending;
      pending.catch(() => {
        if (this.#paid === pending) this.#paid = undefined;
      });
    }
    return this.#paid;
  }

  /**
   * 1. `/catalog`: a 403 is kept as the refusal; a 401, 429 or network failure is thrown. 2. Another answer
   * that is not a readable catalog (404, 5xx, not JSON) ⇒ the spec's plan table, assumed. 3. The limits read
   * from the document in whatever shape, missing parts assumed; every assumption announced once.
   */
  async #readPaidLimits(): Promise<PaidLimits> {
    let catalog: unknown;
    try {
      catalog = await this.#core.getJson<unknown>(this.#core.apiUrl('/catalog'));
    } catch (error) {
      if (error instanceof ForbiddenError) return { refusal: error };
      const reason = unreadableReason(error, '/catalog');
      if (reason === undefined) throw error;
      return this.#adopt(assumedLimits('/catalog', reason));
    }
    return this.#adopt(limitsFromDocument(catalog, '/catalog'));
  }

  /** A key without a paid plan: its limits from /research/catalog, or the spec's free plan. */
  async #readFreeLimits(): Promise<AccountLimits> {
    let catalog: unknown;
    try {
      catalog = await this.#core.getJson<unknown>(this.#core.apiUrl('/research/catalog'));
    } catch (error) {
      const reason = unreadableReason(error, '/research/catalog');
      if (reason === undefined) throw error;
      return this.#adopt(assumedLimits('/research/catalog', reason)).limits;
    }
    return this.#adopt(limitsFromDocument(catalog, '/research/catalog')).limits;
  }

  /** Sizes the limiter from limits, announces what was assumed, and tells `onLimits` of limits the service reported. */
  #adopt(outcome: LimitsOutcome): { limits: AccountLimits } {
    for (const message of outcome.notices) this.#core.notify({ kind: 'limits_assumed', message });
    const reported = outcome.limits.source === 'reported';
    this.#core.setAccountRpm(outcome.limits.rpm, reported);
    if (reported) {
      try {
        this.#core.options.onLimits?.({ ...outcome.limits });
      } catch {
        // a listener's failure must not fail the request
      }
    }
    return { limits: outcome.limits };
  }
}

/**
 * Why a catalog counts as unreadable (one short phrase) when the service answered with something other
 * than the document: 404, another status, 5xx after retries, a body that is not JSON. Undefined for
 * failures that are not about the catalog (401/403, 429, network, timeout, abort, redirect): those are thrown.
 */
function unreadableReason(error: unknown, path: string): string | undefined {
  if (error instanceof ApiNotFoundError) return `${path} answered 404`;
  if (error instanceof ServiceUnavailableError || error instanceof ConflictError || error instanceof ValidationError) {
    return `${path} answered ${error.status}`;
  }
  if (error instanceof UnexpectedResponseError) {
    const status = error.status;
    return status === undefined || (status >= 200 && status < 300) ? `${path} was not readable JSON` : `${path} answered ${status}`;
  }
  return undefined;
}
