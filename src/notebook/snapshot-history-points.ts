// A snapshot history as chart points: one numeric item field per series over generated_at. Display only:
// the history is handed in (recorded and read back by the catalog, e.g. `Workbench.snapshotHistory`).

import type { SnapshotHistoryEntry } from '../catalog/index.js';
import { NotebookOptionError } from './notebook-errors.js';
import { notebookMessages } from './messages.js';

/** One point of a snapshot history series: an item's numeric field at a snapshot's generated_at. */
export interface SnapshotHistoryPoint {
  /** generated_at as ISO time (UTC). */
  time: string;
  /** The item's `seriesField` value (e.g. the symbol). */
  series: string;
  /** Null when the item gave no valid observation (missing, never zero). */
  value: number | null;
}

/**
 * Flattens a history into points of one numeric item field (e.g. `change_24h`), one series per value of
 * `seriesField` (default `symbol`). A null or absent value stays null.
 * @throws NotebookOptionError when no item of any snapshot has `field` as a number.
 */
export function snapshotHistoryPoints(
  history: readonly SnapshotHistoryEntry[],
  field: string,
  options: { seriesField?: string } = {},
): SnapshotHistoryPoint[] {
  const seriesField = options.seriesField ?? 'symbol';
  const points = history.flatMap((entry) =>
    (entry.snapshot.items ?? []).map((item) => ({
      time: new Date(entry.generated_at * 1000).toISOString(),
      series: String(item[seriesField] ?? ''),
      value: typeof item[field] === 'number' && Number.isFinite(item[field]) ? (item[field] as number) : null,
    })),
  );
  if (points.length > 0 && points.every((point) => point.value === null)) {
    throw new NotebookOptionError(notebookMessages.badHistoryField(field), { option: 'field' });
  }
  return points;
}
