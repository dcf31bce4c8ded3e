// The account's limits as learned by an earlier client, kept in `<home>/account-limits.json` so the next
// command starts at the right pace (ClientOptions.knownLimits) instead of the smallest plan's 60 rpm, and,
// for a day after the paid /catalog stated them, does not spend a request on reading them again.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { keyId, type AccountLimits, type KnownAccountLimits } from '../client/index.js';
import { makeFolder, replaceFile } from '../base/index.js';

/** The file's name in the home folder. */
export const KNOWN_LIMITS_FILE = 'account-limits.json';

/** Most entries kept (service × key); the oldest learned go first. */
const MAX_ENTRIES = 64;

/** Limits the paid /catalog stated less than this long ago are taken as current (no /catalog read). */
export const KNOWN_LIMITS_CURRENT_MS = 24 * 3600 * 1000;

/** One learned entry: the limits, where they were read, and when (ISO 8601). */
interface KnownLimitsEntry {
  rpm: number;
  daily_bytes?: number | undefined;
  keys?: number | undefined;
  /** '/catalog' (the paid plan's limits) or '/research/catalog' (a pace only). */
  origin?: string | undefined;
  learned: string;
}

/** The file: entries named `<scope> <key fingerprint>`; never the key (the fingerprint is sha256(key)[:16]). */
interface KnownLimitsFile {
  version: 1;
  limits: Record<string, KnownLimitsEntry>;
}

/** Where a learned limit applies: the service (`scope`: its origin, or `embedded-mock`) and the key. */
export interface KnownLimitsSlot {
  /** Absolute home folder. */
  home: string;
  /** The service: the base URL's origin, or `embedded-mock` (whose port changes on every start). */
  scope: string;
  /** The key; only its fingerprint (first 16 hex of its SHA-256, as the pacing state's name) is stored. */
  apiKey: string;
}

const entryName = (slot: KnownLimitsSlot): string => `${slot.scope} ${keyId(slot.apiKey)}`;

/** The file's entries; an absent, unreadable or foreign file reads as none (never an error). */
async function readEntries(home: string): Promise<Record<string, KnownLimitsEntry>> {
  try {
    const parsed = JSON.parse(await readFile(join(home, KNOWN_LIMITS_FILE), 'utf8')) as Partial<KnownLimitsFile> | null;
    const limits = parsed?.version === 1 && typeof parsed.limits === 'object' && parsed.limits !== null ? parsed.limits : {};
    const entries: Record<string, KnownLimitsEntry> = {};
    for (const [name, entry] of Object.entries(limits)) {
      const { rpm, daily_bytes: dailyBytes, keys, origin, learned } = (entry ?? {}) as Partial<KnownLimitsEntry>;
      if (!isCount(rpm) || rpm <= 0) continue;
      entries[name] = {
        rpm,
        ...(isCount(dailyBytes) ? { daily_bytes: dailyBytes } : {}),
        ...(isCount(keys) ? { keys } : {}),
        ...(typeof origin === 'string' ? { origin } : {}),
        learned: String(learned ?? ''),
      };
    }
    return entries;
  } catch {
    return {};
  }
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * The limits learned for this service and key, or undefined (none yet, or the file is unreadable). `current`
 * when the paid /catalog stated them less than KNOWN_LIMITS_CURRENT_MS before `now` (a clock turned back
 * counts as not current).
 */
export async function readKnownLimits(slot: KnownLimitsSlot, now: Date = new Date()): Promise<KnownAccountLimits | undefined> {
  const entry = (await readEntries(slot.home))[entryName(slot)];
  if (entry === undefined) return undefined;
  const age = now.getTime() - Date.parse(entry.learned);
  return {
    rpm: entry.rpm,
    daily_bytes: entry.daily_bytes,
    keys: entry.keys,
    current: entry.origin === '/catalog' && age >= 0 && age < KNOWN_LIMITS_CURRENT_MS,
  };
}

/**
 * Records the limits a client read from the service, with the time: written to a temporary file and renamed
 * over the old one (never half-written). Two processes writing at once may lose one entry (it is learned
 * again next time). Never throws: a home it cannot write is left as it is.
 */
export async function recordKnownLimits(slot: KnownLimitsSlot, limits: AccountLimits, now: Date = new Date()): Promise<void> {
  const { rpm } = limits;
  if (!Number.isFinite(rpm) || rpm <= 0) return;
  const file = join(slot.home, KNOWN_LIMITS_FILE);
  try {
    const entries = await readEntries(slot.home);
    const name = entryName(slot);
    entries[name] = {
      rpm,
      ...(isCount(limits.daily_bytes) ? { daily_bytes: limits.daily_bytes } : {}),
      ...(isCount(limits.keys) ? { keys: limits.keys } : {}),
      origin: limits.origin,
      learned: now.toISOString(),
    };
    const kept = Object.entries(entries)
      .sort(([, a], [, b]) => b.learned.localeCompare(a.learned))
      .slice(0, MAX_ENTRIES);
    const document: KnownLimitsFile = { version: 1, limits: Object.fromEntries(kept) };
    await makeFolder(slot.home);
    await replaceFile(file, `${JSON.stringify(document, null, 2)}\n`);
  } catch {
    // A home it cannot write is left as it is (replaceFile removed its temporary file).
  }
}
