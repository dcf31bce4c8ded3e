// Fault rules: what to break, for which release and format, how many times (in-process and --faults FILE).

import { DOWNLOAD_FORMATS, isReleaseId, type DownloadFormat } from '../../contract/index.js';
import { messages } from './messages.js';
import { MockServerOptionError } from './mock-errors.js';

export const FAULT_KINDS = ['corrupt', 'truncate', 'status503', 'reset', 'slow'] as const;
/**
 * - `corrupt`: same length, some bytes flipped (the ETag still names the true digest).
 * - `truncate`: `Content-Length` of the full body, then the connection closes after half of it.
 * - `status503`: 503 `unavailable` instead of the response.
 * - `reset`: a TCP reset after a quarter of the body.
 * - `slow`: the body in 16 KiB chunks with `delayMs` between them.
 */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Where a fault applies: a download format, `rows` (the row endpoint; only `status503` applies), or any. */
export type FaultTarget = DownloadFormat | 'rows' | '*';

export interface FaultRule {
  /** Release ID (64 lowercase hex) or `*` for any release. Default `*`. */
  releaseId?: string;
  /** Download format, `rows`, or `*` for any. Default `*`. */
  format?: FaultTarget;
  kind: FaultKind;
  /** Number of matching responses to break, then the rule is spent. Default: unlimited. */
  times?: number;
  /** `slow` only: milliseconds between 16 KiB chunks. Default 1000. */
  delayMs?: number;
}

/** A validated rule with its remaining count. */
export interface ActiveFault {
  readonly releaseId: string;
  readonly format: FaultTarget;
  readonly kind: FaultKind;
  readonly delayMs: number;
  remaining: number;
}

const TARGETS: readonly string[] = [...DOWNLOAD_FORMATS, 'rows', '*'];

/** Validates one fault rule (from code or a JSON file) and applies defaults. */
export function resolveFaultRule(value: unknown, index = 0): ActiveFault {
  const fail = (detail: string): never => {
    throw new MockServerOptionError(messages.faultRule(index, detail), { option: 'faults' });
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('expected an object');
  const rule = value as Record<string, unknown>;
  for (const key of Object.keys(rule)) {
    if (!['releaseId', 'format', 'kind', 'times', 'delayMs'].includes(key)) fail(`unknown field "${key}"`);
  }
  const releaseId = rule.releaseId ?? '*';
  if (releaseId !== '*' && !isReleaseId(releaseId)) fail('releaseId must be 64 lowercase hex characters or "*"');
  const format = rule.format ?? '*';
  if (typeof format !== 'string' || !TARGETS.includes(format)) fail(`format must be one of ${TARGETS.join(', ')}`);
  if (typeof rule.kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(rule.kind)) {
    fail(`kind must be one of ${FAULT_KINDS.join(', ')}`);
  }
  const times = rule.times ?? Number.POSITIVE_INFINITY;
  if (times !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(times) || (times as number) < 1)) fail('times must be an integer >= 1');
  const delayMs = rule.delayMs ?? 1000;
  if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0) fail('delayMs must be a number >= 0');
  return {
    releaseId: releaseId as string,
    format: format as FaultTarget,
    kind: rule.kind as FaultKind,
    delayMs: delayMs as number,
    remaining: times as number,
  };
}

/** The live fault rules of a server; the first matching rule wins and spends one of its `times`. */
export class FaultSet {
  #rules: ActiveFault[] = [];

  constructor(rules: readonly unknown[] = []) {
    rules.forEach((rule, index) => this.add(rule as FaultRule, index));
  }

  /** Adds a rule (validated; throws `MockServerOptionError`). */
  add(rule: FaultRule, index = this.#rules.length): void {
    this.#rules.push(resolveFaultRule(rule, index));
  }

  clear(): void {
    this.#rules = [];
  }

  get size(): number {
    return this.#rules.length;
  }

  /** The fault to apply to a response for `releaseId` and `target`, spending it; undefined when none. */
  take(releaseId: string, target: DownloadFormat | 'rows'): ActiveFault | undefined {
    if (this.#rules.length === 0) return undefined;
    const index = this.#rules.findIndex(
      (rule) =>
        (rule.releaseId === '*' || rule.releaseId === releaseId) &&
        (rule.format === target || (rule.format === '*' && (target !== 'rows' || rule.kind === 'status503'))) &&
        (target !== 'rows' || rule.kind === 'status503'),
    );
    const rule = this.#rules[index];
    if (!rule) return undefined;
    rule.remaining -= 1;
    if (rule.remaining <= 0) this.#rules.splice(index, 1);
    return rule;
  }
}
