// The account's limits from whatever a catalog says (spec: `limits.keys`, `limits.rpm`, `limits.daily_bytes`,
// "not shown" beyond that): read tolerantly, fall back to the spec's plan table conservatively, say so.

import { PLANS } from '../contract/index.js';
import type { AccountLimits } from './client-types.js';
import { messages } from './messages.js';

/** What a catalog says about one limit each; undefined = not readable. */
export interface LimitsReading {
  keys?: number;
  rpm?: number;
  daily_bytes?: number;
}

/** Account limits with the sentences a person should read about them (kind 'limits_assumed'). */
export interface LimitsOutcome {
  limits: AccountLimits;
  notices: string[];
}

/** Requests per minute assumed when the service does not say: the smallest plan's (spec "Limits": 60). */
export const ASSUMED_RPM = Math.min(...Object.values(PLANS).map((plan) => plan.rpm));

/** Names that are usage counters or windows, not allowances. */
const NOT_AN_ALLOWANCE = /used|usage|remaining|consumed|spent|reset|burst|window|current|today|left/;
const RPM_NAME = /rpm|minute|ratelimit|^limitsrequests$|^limitsrate$|^limitsrequestlimit$/;
const RPM_OTHER_UNIT = /second|hour|day|daily|byte/;
const BYTES_NAME = /byte|bandwidth|transfer|download|quota/;
const DAILY_NAME = /day|daily|24h/;
const KEYS_NAME = /key/;
const UNIT_FACTORS: Readonly<Record<string, number>> = {
  '': 1, b: 1, byte: 1, bytes: 1,
  k: 1e3, kb: 1e3, kib: 2 ** 10,
  m: 1e6, mb: 1e6, mib: 2 ** 20,
  g: 1e9, gb: 1e9, gib: 2 ** 30,
  t: 1e12, tb: 1e12, tib: 2 ** 40,
};

/**
 * Reads the limits from a catalog document of any shape: `limits` when present (else the document without
 * `datasets`), walked to depth 4 including `[{name, value}]` lists; names matched loosely (`rpm`,
 * `requests.per_minute`, `rate_limit`, `daily_bytes`, `bytes_per_day`, `daily_byte_limit`, `max_keys`, …),
 * usage counters (`used`, `remaining`, …) ignored; numbers, numeric strings and sizes (`"1 GiB"`; GB taken
 * as 10^9, the smaller reading) accepted. Where several names match, the smallest value is kept (conservative).
 */
export function readLimits(document: unknown): LimitsReading {
  const record = isRecord(document) ? document : {};
  const root =
    record.limits !== undefined && record.limits !== null
      ? { limits: record.limits }
      : Object.fromEntries(Object.entries(record).filter(([name]) => name !== 'datasets'));
  const found: { rpm: number[]; daily_bytes: number[]; keys: number[] } = { rpm: [], daily_bytes: [], keys: [] };
  for (const { path, value } of leaves(root, '', 0)) {
    if (NOT_AN_ALLOWANCE.test(path)) continue;
    if (RPM_NAME.test(path) && !RPM_OTHER_UNIT.test(path)) push(found.rpm, leadingNumber(value), (n) => n > 0);
    else if (path.endsWith('dailybytes') || (BYTES_NAME.test(path) && DAILY_NAME.test(path))) push(found.daily_bytes, byteSize(value), (n) => n >= 0);
    else if (KEYS_NAME.test(path)) push(found.keys, leadingNumber(value), (n) => Number.isInteger(n) && n >= 0);
  }
  const least = (values: number[]) => (values.length === 0 ? undefined : Math.min(...values));
  const reading: LimitsReading = {};
  const rpm = least(found.rpm);
  const dailyBytes = least(found.daily_bytes);
  const keys = least(found.keys);
  if (rpm !== undefined) reading.rpm = rpm;
  if (dailyBytes !== undefined) reading.daily_bytes = Math.floor(dailyBytes);
  if (keys !== undefined) reading.keys = keys;
  return reading;
}

/**
 * The limits of a key whose catalog document was read (`path` names it). Paid: a missing rpm is the
 * smallest plan's (assumed), a missing daily_bytes stays unknown (no local pre-check), missing keys unknown.
 * Free (`/research/catalog`): the spec's free plan fills what is missing.
 */
export function limitsFromDocument(document: unknown, path: '/catalog' | '/research/catalog'): LimitsOutcome {
  const reading = readLimits(document);
  const paid = path === '/catalog';
  const nothing = reading.rpm === undefined && reading.daily_bytes === undefined && reading.keys === undefined;
  if (nothing) return assumedLimits(paid ? '/catalog' : '/research/catalog', `${path} gave no readable limits`);
  const notices: string[] = [];
  const rpmReported = reading.rpm !== undefined;
  if (!rpmReported) notices.push(messages.rpmAssumed(`${path} gave no requests per minute`, ASSUMED_RPM));
  if (paid && reading.daily_bytes === undefined) notices.push(messages.dailyBytesUnknown(path));
  return {
    limits: {
      keys: reading.keys ?? (paid ? undefined : PLANS.free.keys),
      rpm: reading.rpm ?? ASSUMED_RPM,
      daily_bytes: reading.daily_bytes ?? (paid ? undefined : PLANS.free.daily_bytes),
      source: rpmReported ? 'reported' : 'assumed',
      origin: rpmReported ? path : `${path} gave no requests per minute`,
    },
    notices,
  };
}

/**
 * The spec's plan table when the catalog at `path` could not be read (`reason`, one short phrase):
 * paid ⇒ 60 rpm, byte budget and keys unknown; free ⇒ the free plan (60 rpm, no paid bytes, 1 key).
 */
export function assumedLimits(path: '/catalog' | '/research/catalog', reason: string): LimitsOutcome {
  if (path === '/research/catalog') {
    const { keys, rpm, daily_bytes } = PLANS.free;
    return { limits: { keys, rpm, daily_bytes, source: 'assumed', origin: reason }, notices: [messages.freeLimitsAssumed(reason, rpm)] };
  }
  return {
    limits: { keys: undefined, rpm: ASSUMED_RPM, daily_bytes: undefined, source: 'assumed', origin: reason },
    notices: [messages.limitsAssumed(reason, ASSUMED_RPM)],
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Leaf values with their compact lower-case path (`requests.per_minute` ⇒ `limitsrequestsperminute`). */
function leaves(value: unknown, path: string, depth: number): { path: string; value: unknown }[] {
  if (depth > 4) return [];
  const step = (name: string) => path + name.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      // `[{ "name": "rpm", "value": 60 }]`: the name is the path
      const name = isRecord(item) ? [item.name, item.key, item.id, item.type].find((n) => typeof n === 'string') : undefined;
      const inner = isRecord(item) ? (item.value ?? item.limit ?? item.max) : undefined;
      return typeof name === 'string' && inner !== undefined ? leaves(inner, step(name), depth + 1) : leaves(item, path, depth + 1);
    });
  }
  if (isRecord(value)) return Object.entries(value).flatMap(([name, inner]) => leaves(inner, step(name), depth + 1));
  return [{ path, value }];
}

function push(into: number[], value: number | undefined, valid: (n: number) => boolean): void {
  if (value !== undefined && Number.isFinite(value) && valid(value)) into.push(value);
}

/** A number, or the number a string starts with (`"60"`, `"60/min"`); undefined otherwise. */
function leadingNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)/.exec(value);
  return match === null ? undefined : Number(match[1]);
}

/** Bytes from a number or a size string (`"1073741824"`, `"1 GiB"`, `"5GB/day"`); undefined otherwise. */
function byteSize(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)/i.exec(value);
  if (match === null) return undefined;
  const factor = UNIT_FACTORS[match[2]!.toLowerCase()];
  return factor === undefined ? undefined : Number(match[1]) * factor;
}
