// Event-study rows as a danfojs DataFrame, for notebooks. danfojs is heavy (TensorFlow.js): it is
// imported lazily here, never by the library's static import graph (STACK.md).

import type { EventStudyResult } from './event-study-result.js';

/** A danfojs DataFrame of the study rows (columns as in the Arrow table). Loads danfojs on first call. */
export async function toDataFrame(result: Pick<EventStudyResult, 'rows' | 'table'>): Promise<import('danfojs').DataFrame> {
  const danfo = await import('danfojs');
  const columns = result.table.schema.fields.map((field) => field.name);
  const rows = result.rows as readonly Record<string, unknown>[];
  const data = Object.fromEntries(columns.map((name) => [name, rows.map((row) => row[name] ?? null)]));
  return new danfo.DataFrame(data, { columns });
}
