// fallenOffDays: which days may have fallen off the `/releases` listing (at most 100 items, no offset) since
// the home last knew the archive: a release of such a day can only be pulled by an ID one already knows.

/** The UTC day `days` after `day` (YYYY-MM-DD; negative: before). */
export const dayAfter = (day: string, days = 1): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The days from the day after `knownLastDay` to the day before `oldestListedDay`, when the listing was full
 * (`listed >= limit`: older items were cut off) and that range is not empty; null otherwise (nothing could
 * have fallen off, or the home knew no day yet).
 */
export function fallenOffDays(
  oldestListedDay: string | null,
  listed: number,
  limit: number,
  knownLastDay: string | undefined,
): { from: string; to: string } | null {
  if (knownLastDay === undefined || oldestListedDay === null || listed < limit) return null;
  const from = dayAfter(knownLastDay);
  return oldestListedDay > from ? { from, to: dayAfter(oldestListedDay, -1) } : null;
}
