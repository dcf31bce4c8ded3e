// Per-day totals of the event study's difference, read with the study's own SQL (eventClusterTotalsSql,
// controlClusterTotalsSql), and the difference, its leave-one-block-out values and the day bootstrap
// computed from them: what the calibration bench's exploration mode measures intervals on.

import type { DuckDBConnection } from '@duckdb/node-api';
import { WINDOWS, type Window } from '../../../src/contract/index.js';
import { controlClusterTotalsSql, eventClusterTotalsSql } from '../../../src/analysis/event-study-sql.js';

/** One window × group's per-day totals, aligned on the window's days (calendar order). */
export interface GroupDayTotals {
  window: Window;
  eventKind: string;
  direction: string;
  /** Day numbers (days since 1970-01-01) of every day with a complete event or control return of the window. */
  days: Int32Array;
  eventSums: Float64Array;
  eventCounts: Float64Array;
  eventSigned: Float64Array;
  controlSums: Float64Array;
  controlCounts: Float64Array;
}

const BY = ['event_kind', 'direction'] as const;

function dayNumber(day: string): number {
  return Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
}

/** Reads every window × (event_kind, direction) group's per-day totals from `from` (a FROM clause). */
export async function readGroupDayTotals(connection: DuckDBConnection, from: string, windows: readonly Window[] = WINDOWS): Promise<GroupDayTotals[]> {
  const events = (await connection.runAndReadAll(eventClusterTotalsSql(from, windows, [...BY]))).getRowObjectsJS();
  const controls = (await connection.runAndReadAll(controlClusterTotalsSql(from, windows, [...BY]))).getRowObjectsJS();
  const controlByWindow = new Map<string, Map<number, [number, number]>>();
  for (const row of controls) {
    const window = String(row.window);
    let days = controlByWindow.get(window);
    if (!days) controlByWindow.set(window, (days = new Map()));
    days.set(dayNumber(String(row.cluster)), [Number(row.total), Number(row.n)]);
  }
  const groups = new Map<string, { window: Window; eventKind: string; direction: string; days: Map<number, [number, number, number]> }>();
  for (const row of events) {
    const key = `${row.window}|${row.event_kind}|${row.direction}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { window: row.window as Window, eventKind: String(row.event_kind), direction: String(row.direction), days: new Map() }));
    group.days.set(dayNumber(String(row.cluster)), [Number(row.total), Number(row.n), Number(row.signed)]);
  }
  const out: GroupDayTotals[] = [];
  for (const group of groups.values()) {
    const controlDays = controlByWindow.get(group.window) ?? new Map();
    const days = Int32Array.from(new Set([...controlDays.keys(), ...group.days.keys()])).sort();
    const totals: GroupDayTotals = {
      window: group.window,
      eventKind: group.eventKind,
      direction: group.direction,
      days,
      eventSums: new Float64Array(days.length),
      eventCounts: new Float64Array(days.length),
      eventSigned: new Float64Array(days.length),
      controlSums: new Float64Array(days.length),
      controlCounts: new Float64Array(days.length),
    };
    days.forEach((day, i) => {
      const e = group.days.get(day);
      if (e) [totals.eventSums[i], totals.eventCounts[i], totals.eventSigned[i]] = e;
      const c = controlDays.get(day);
      if (c) [totals.controlSums[i], totals.controlCounts[i]] = c;
    });
    out.push(totals);
  }
  return out.sort((a, b) => WINDOWS.indexOf(a.window) - WINDOWS.indexOf(b.window) || a.eventKind.localeCompare(b.eventKind) || a.direction.localeCompare(b.direction));
}

/** Sums of a group's totals, optionally without the days where `skip[i]` is true. */
interface Sums {
  eSum: number;
  eCount: number;
  eSigned: number;
  cSum: number;
  cCount: number;
}

export function sumTotals(totals: GroupDayTotals, include: (i: number) => boolean = () => true): Sums {
  const s: Sums = { eSum: 0, eCount: 0, eSigned: 0, cSum: 0, cCount: 0 };
  for (let i = 0; i < totals.days.length; i += 1) {
    if (!include(i)) continue;
    s.eSum += totals.eventSums[i]!;
    s.eCount += totals.eventCounts[i]!;
    s.eSigned += totals.eventSigned[i]!;
    s.cSum += totals.controlSums[i]!;
    s.cCount += totals.controlCounts[i]!;
  }
  return s;
}

/** The study's difference: mean event return − mean sign × mean control return (NaN when a side is empty). */
export function differenceOf(s: Sums): number {
  return s.eCount > 0 && s.cCount > 0 ? s.eSum / s.eCount - (s.eSigned / s.eCount) * (s.cSum / s.cCount) : Number.NaN;
}

/** The difference without each block in turn; `block[i]` is day i's block (0..count-1). */
export function leaveOneBlockOut(totals: GroupDayTotals, block: Int32Array, count: number): Float64Array {
  const all = sumTotals(totals);
  const perBlock: Sums[] = Array.from({ length: count }, () => ({ eSum: 0, eCount: 0, eSigned: 0, cSum: 0, cCount: 0 }));
  for (let i = 0; i < totals.days.length; i += 1) {
    const b = perBlock[block[i]!]!;
    b.eSum += totals.eventSums[i]!;
    b.eCount += totals.eventCounts[i]!;
    b.eSigned += totals.eventSigned[i]!;
    b.cSum += totals.controlSums[i]!;
    b.cCount += totals.controlCounts[i]!;
  }
  return Float64Array.from(perBlock, (b) =>
    differenceOf({ eSum: all.eSum - b.eSum, eCount: all.eCount - b.eCount, eSigned: all.eSigned - b.eSigned, cSum: all.cSum - b.cSum, cCount: all.cCount - b.cCount }),
  );
}

/** Only the days from `firstDay` on (a shorter market's days within a longer market's totals). */
export function fromDay(totals: GroupDayTotals, firstDay: number): GroupDayTotals {
  let start = 0;
  while (start < totals.days.length && totals.days[start]! < firstDay) start += 1;
  return {
    ...totals,
    days: totals.days.slice(start),
    eventSums: totals.eventSums.slice(start),
    eventCounts: totals.eventCounts.slice(start),
    eventSigned: totals.eventSigned.slice(start),
    controlSums: totals.controlSums.slice(start),
    controlCounts: totals.controlCounts.slice(start),
  };
}
