// Accounts, plans and API keys of the mock: keys are derived from the seed, stored only as SHA-256 digests,
// and confirmed with a constant-time comparison (spec: "Authentication").

import { createHash, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX, isPlanId, type PlanId } from '../../contract/index.js';
import { messages } from './messages.js';
import { KeySlotsFullError, MockServerOptionError, UnknownAccountError } from './mock-errors.js';
import type { ResolvedPlanLimits } from './mock-server-options.js';

/** Names of the seeded accounts' keys, as in the `rdw mock --json` ready line (DESIGN.md 2.3). */
export const SEEDED_KEY_NAMES = ['free', 'researcher', 'desk', 'lapsed', 'downgradedFirst', 'downgradedExtra', 'revoked', 'audit'] as const;
export type SeededKeyName = (typeof SEEDED_KEY_NAMES)[number];
/** Full secrets of the seeded keys, by name. */
export type SeededKeys = Record<SeededKeyName, string>;

/** Characters after the prefix of a key. */
const KEY_BODY = /^[A-Za-z0-9]{32}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

interface KeyRecord {
  readonly digest: Buffer;
  readonly account: Account | undefined; // undefined: the internal audit key
  readonly label: string;
  revoked: boolean;
}

export interface Account {
  readonly id: string;
  plan: PlanId;
  /** Keys in creation order, revoked ones included. */
  readonly keys: KeyRecord[];
  requests: number;
  /** UTC day (data clock) `bytesUsed` belongs to. */
  bytesDay: string;
  bytesUsed: number;
}

/** Outcome of checking a bearer token. */
export type Authentication =
  | { ok: true; account: Account; /** 0-based rank among the account's active keys. */ rank: number }
  | { ok: false; reason: 'wrong' | 'revoked' | 'audit' };

/** Usage of an account: requests so far and file bytes spent on the current UTC day of the data clock. */
export interface AccountUsage {
  requests: number;
  bytesToday: number;
}

/** The in-process admin API of the mock (for tests and notebooks). */
export interface MockAdmin {
  /** Creates an account on `plan`; returns its ID. */
  createAccount(plan: PlanId): string;
  /** Creates a key; returns the full secret (shown once). Throws `KeySlotsFullError` (409) when every slot is used. */
  createKey(accountId: string, label?: string): string;
  /** Revokes a key by its full secret; false when no such key exists. */
  revokeKey(key: string): boolean;
  /**
   * Changes the plan. After a downgrade, active keys beyond the new allowance (newest first) get 403;
   * the day's byte budget restarts (spec: a plan change clears the daily byte limit).
   */
  changePlan(accountId: string, plan: PlanId): void;
  usage(accountId: string): AccountUsage;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/** The accounts and keys of one mock server. */
export class AccountStore implements MockAdmin {
  readonly #accounts = new Map<string, Account>();
  readonly #keys = new Map<string, KeyRecord>();
  readonly #seed: number;
  readonly #today: () => string;
  #keyCounter = 0;

  /**
   * @param seed makes every generated key deterministic.
   * @param today the UTC day of the data clock (`YYYY-MM-DD`), for byte budgets.
   * @param plans plan limits after overrides.
   */
  constructor(
    seed: number,
    today: () => string,
    readonly plans: Readonly<Record<PlanId, ResolvedPlanLimits>>,
  ) {
    this.#seed = seed;
    this.#today = today;
  }

  /** Seeds the accounts of DESIGN.md 2.3 and returns their keys and account IDs. */
  seed(): { keys: SeededKeys; accounts: Record<SeededKeyName, string> } {
    const free = this.createAccount('free');
    const researcher = this.createAccount('researcher');
    const desk = this.createAccount('desk');
    const lapsed = this.createAccount('researcher');
    const downgraded = this.createAccount('desk');
    const revokedAccount = this.createAccount('researcher');
    const keys: SeededKeys = {
      free: this.createKey(free, 'free'),
      researcher: this.createKey(researcher, 'researcher'),
      desk: this.createKey(desk, 'desk-1'),
      lapsed: this.createKey(lapsed, 'lapsed'),
      downgradedFirst: this.createKey(downgraded, 'first'),
      downgradedExtra: this.createKey(downgraded, 'extra'),
      revoked: this.createKey(revokedAccount, 'revoked'),
      audit: this.#addKey(undefined, 'internal-audit'),
    };
    for (let slot = 2; slot <= this.plans.desk.keys; slot += 1) this.createKey(desk, `desk-${slot}`);
    this.changePlan(lapsed, 'free'); // the plan ended: free scope only
    this.changePlan(downgraded, 'researcher'); // Research Desk -> Researcher with 2 keys
    this.revokeKey(keys.revoked);
    const accounts: Record<SeededKeyName, string> = {
      free,
      researcher,
      desk,
      lapsed,
      downgradedFirst: downgraded,
      downgradedExtra: downgraded,
      revoked: revokedAccount,
      audit: '',
    };
    return { keys, accounts };
  }

  createAccount(plan: PlanId): string {
    if (!isPlanId(plan)) throw new MockServerOptionError(messages.option('plan', plan, 'free, researcher or desk'), { option: 'plan' });
    const id = `acct_${this.#accounts.size + 1}`;
    this.#accounts.set(id, { id, plan, keys: [], requests: 0, bytesDay: this.#today(), bytesUsed: 0 });
    return id;
  }

  createKey(accountId: string, label = 'key'): string {
    const account = this.account(accountId);
    const slots = this.plans[account.plan].keys;
    if (account.keys.filter((key) => !key.revoked).length >= slots) throw new KeySlotsFullError(messages.keySlotsFull(accountId, slots));
    return this.#addKey(account, label);
  }

  revokeKey(key: string): boolean {
    const record = this.#keys.get(sha256(key).toString('hex'));
    if (!record) return false;
    record.revoked = true;
    return true;
  }

  changePlan(accountId: string, plan: PlanId): void {
    if (!isPlanId(plan)) throw new MockServerOptionError(messages.option('plan', plan, 'free, researcher or desk'), { option: 'plan' });
    const account = this.account(accountId);
    account.plan = plan;
    account.bytesDay = this.#today();
    account.bytesUsed = 0;
  }

  usage(accountId: string): AccountUsage {
    const account = this.account(accountId);
    return { requests: account.requests, bytesToday: this.bytesToday(account) };
  }

  /** The account with this ID; throws `UnknownAccountError`. */
  account(accountId: string): Account {
    const account = this.#accounts.get(accountId);
    if (!account) throw new UnknownAccountError(messages.unknownAccount(accountId));
    return account;
  }

  /**
   * Checks a bearer token: prefix and shape, then a lookup by SHA-256 digest confirmed with
   * `timingSafeEqual` (the secret itself is never stored nor compared).
   */
  authenticate(token: string): Authentication {
    const digest = sha256(token);
    const shaped = token.startsWith(API_KEY_PREFIX) && KEY_BODY.test(token.slice(API_KEY_PREFIX.length));
    const record = shaped ? this.#keys.get(digest.toString('hex')) : undefined;
    if (!record || !timingSafeEqual(record.digest, digest)) return { ok: false, reason: 'wrong' };
    if (record.revoked) return { ok: false, reason: 'revoked' };
    if (!record.account) return { ok: false, reason: 'audit' };
    let rank = 0;
    for (const key of record.account.keys) {
      if (key === record) break;
      if (!key.revoked) rank += 1;
    }
    return { ok: true, account: record.account, rank };
  }

  /** File bytes the account spent on the current UTC day of the data clock. */
  bytesToday(account: Account): number {
    return account.bytesDay === this.#today() ? account.bytesUsed : 0;
  }

  /** Adds `bytes` to today's spending. */
  spendBytes(account: Account, bytes: number): void {
    const today = this.#today();
    if (account.bytesDay !== today) {
      account.bytesDay = today;
      account.bytesUsed = 0;
    }
    account.bytesUsed += bytes;
  }

  #addKey(account: Account | undefined, label: string): string {
    this.#keyCounter += 1;
    const random = sha256(`rdw-mock-key/${this.#seed}/${this.#keyCounter}`);
    let body = '';
    for (const byte of random) body += BASE62[byte % 62];
    const secret = `${API_KEY_PREFIX}${body}`;
    const record: KeyRecord = { digest: sha256(secret), account, label, revoked: false };
    this.#keys.set(record.digest.toString('hex'), record);
    account?.keys.push(record);
    return secret;
  }
}
