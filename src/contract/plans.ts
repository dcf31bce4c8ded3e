// Plans, key slots and limits (spec: "Limits" and "Authentication").

export const PLAN_IDS = ['free', 'researcher', 'desk'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface PlanLimits {
  /** Active-key slots of an account on this plan. */
  keys: number;
  /** Requests per minute, account-wide across its keys. */
  rpm: number;
  /** Paid file bytes per UTC day, account-wide; 0 means no bulk-download allowance. */
  daily_bytes: number;
  /** Whether the plan opens the paid Market Events scope. */
  paid: boolean;
}

const GiB = 1024 ** 3;

export const PLANS: Readonly<Record<PlanId, PlanLimits & { name: string }>> = {
  free: { name: 'Free', keys: 1, rpm: 60, daily_bytes: 0, paid: false },
  researcher: { name: 'Researcher', keys: 1, rpm: 60, daily_bytes: 1 * GiB, paid: true },
  desk: { name: 'Research Desk', keys: 5, rpm: 300, daily_bytes: 5 * GiB, paid: true },
};

/** Public live endpoints: requests per minute per IP, shared across their JSON and CSV forms. */
export const PUBLIC_LIVE_RPM_PER_IP = 60;

/** Length of the request-rate window, in seconds. */
export const RATE_WINDOW_SECONDS = 60;

/** Every key begins with this prefix; the key list shows `rdw_sk_abcd…`, which is not a key. */
export const API_KEY_PREFIX = 'rdw_sk_';

/** The shortened display form of a key in the key list (never usable as a key). */
export const DISPLAY_KEY_PATTERN = /^rdw_sk_[A-Za-z0-9]{0,8}(…|\.\.\.)$/;

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (PLAN_IDS as readonly string[]).includes(value);
}
