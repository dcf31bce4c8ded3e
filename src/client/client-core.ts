// What every scope of one client shares: its options, the transport, the key's and the public limiters,
// the byte budget, the notice sink, the account limits, and the few request helpers the scopes are built on.

import { PLANS, PUBLIC_LIVE_RPM_PER_IP, UsageError } from '../contract/index.js';
import { ByteBudget } from './byte-budget.js';
import { ClientLimits, type LimitsClient } from './client-limits.js';
import type { ResolvedClientOptions } from './client-options.js';
import { HttpTransport, displayPath } from './http-transport.js';
import type { TransportRequest } from './transport-request.js';
import { KeyState, accountStateId, keyId } from './key-state.js';
import { messages } from './messages.js';
import { noticeSink, type Notify } from './notice-sink.js';
import { RateLimiter, type PaceWait } from './rate-limiter.js';

/** Before the account's limits are known, pace at the smallest plan rpm. */
const DEFAULT_RPM = Math.min(...Object.values(PLANS).map((plan) => plan.rpm));

/** The state and helpers one client's scopes share; built once per createClient. */
export class ClientCore implements LimitsClient {
  readonly options: ResolvedClientOptions;
  readonly transport: HttpTransport;
  /**
   * Paces every request that carries the key (shared by every client of the key, or of the declared
   * `account`, across processes with `home`). Starts at `knownLimits.rpm`, else the smallest plan's.
   */
  readonly keyLimiter: RateLimiter;
  /** Paces the public live scope (spec: per IP, PUBLIC_LIVE_RPM_PER_IP). */
  readonly publicLimiter: RateLimiter;
  readonly budget: ByteBudget;
  /** Tells ClientOptions.onNotice (once per kind and message) what a person should know. */
  readonly notify: Notify;
  /** The account's limits (one /catalog per client) and the byte-budget check built on them. */
  readonly limits: ClientLimits;

  constructor(options: ResolvedClientOptions) {
    this.options = options;
    this.notify = noticeSink(options.onNotice);
    this.transport = new HttpTransport(options, this.notify);
    const stateId = options.account !== undefined && options.apiKey !== undefined ? accountStateId(options.account) : keyId(options.apiKey);
    const keyState = KeyState.for(stateId, options.home);
    this.#rpmKnown = options.knownLimits !== undefined;
    this.keyLimiter = new RateLimiter(keyState, options.clock, {
      rpm: options.knownLimits?.rpm ?? DEFAULT_RPM,
      provisional: options.knownLimits === undefined,
      share: options.rateShare,
      onWait: (wait) => this.#paceWait(wait, this.#rpmKnown),
    });
    this.publicLimiter = new RateLimiter(KeyState.for('public', options.home), options.clock, {
      rpm: PUBLIC_LIVE_RPM_PER_IP,
      share: options.rateShare,
      onWait: (wait) => this.#paceWait(wait, true, 'public'),
    });
    this.budget = new ByteBudget(keyState, options.clock);
    this.limits = new ClientLimits(this);
  }

  /** Whether the key's limiter paces to the account's limits (known from an earlier client or read here). */
  #rpmKnown: boolean;

  /** Sizes the key's limiter from the account's limits (`known`: reported by the service, not the fallback). */
  setAccountRpm(rpm: number, known: boolean): void {
    this.keyLimiter.setRpm(rpm);
    this.#rpmKnown = known;
  }

  /** Announces a pacing wait (kind 'pace_wait', with waitMs): its reason and how long. */
  #paceWait(wait: PaceWait, known: boolean, scope: 'key' | 'public' = 'key'): void {
    const basis = scope === 'public' ? 'public' : known ? 'account' : 'assumed';
    this.notify({ kind: 'pace_wait', message: messages.paceWait(wait.waitMs, wait.reason, wait.capacity, basis), waitMs: wait.waitMs });
  }

  /** `{base_url}` followed by `path` (which starts with `/`). */
  apiUrl(path: string): string {
    return `${this.options.baseUrl}${path}`;
  }

  /** A keyed request to `url`, paced by the key's limiter; a daily-byte 429 marks today's budget used up. */
  request(url: string, extra: Partial<TransportRequest> = {}): TransportRequest {
    return {
      url,
      auth: true,
      limiter: this.keyLimiter,
      onByteLimit: () => this.budget.exhaust(),
      ...extra,
    };
  }

  /** GETs a JSON document with the key (`extra`: e.g. the caller's abort signal). */
  getJson<T>(url: string, extra: Partial<TransportRequest> = {}): Promise<T> {
    this.requireKey(`The request for ${displayPath(url)}`);
    return this.transport.json<T>(this.request(url, extra));
  }

  /** GETs a CSV body with the key (within the CSV size limit). */
  async getCsvText(url: string): Promise<string> {
    this.requireKey(`The request for ${displayPath(url)}`);
    const response = await this.transport.send(this.request(url));
    return this.transport.readText(response, displayPath(url), 'csv');
  }

  /** Throws UsageError (option `apiKey`) when this client has no key; `what` names the call that needs one. */
  requireKey(what: string): void {
    if (!this.transport.hasKey) throw new UsageError(messages.keyRequired(what), { option: 'apiKey' });
  }

  /** Gives back unused leased tokens, writes this process's byte counts to the shared state, closes the pool. */
  async close(): Promise<void> {
    await Promise.all([this.keyLimiter.release(), this.publicLimiter.release(), this.budget.flush()]).catch(() => undefined);
    await this.transport.close();
  }
}
