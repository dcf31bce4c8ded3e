// `rdw study event [--lock FILE] [--window 1h] [--out DIR]`: the event-vs-control study over the local
// catalog, printed as a table (or rows as JSON), optionally written as a self-contained report.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { analysisMessages, eventStudy, writeStudyReport } from '../../analysis/index.js';
import type { BootstrapMethod, EventStudyResult, EventStudyRow } from '../../analysis/index.js';
import { NotFoundError, UsageError } from '../../spec/index.js';
import { studyLockFromJson } from '../../study/study-lock-json.js';
import type { Command } from '../command.js';

/** Exact release IDs pinned by a study lock file (DESIGN.md 2.5); nothing falls back to other revisions. */
async function lockedReleaseIds(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(analysisMessages.lockUnreadable(path.basename(file), (error as Error).message), { cause: error, option: 'lock' });
  }
  return studyLockFromJson(text, path.basename(file)).releases.map((release) => release.id);
}

const fixed = (value: number | null | undefined, digits = 3) => (value === null || value === undefined ? 'n/a' : value.toFixed(digits));

/** The study as aligned text columns: statistics beside the missingness counts they were computed with. */
export function studyTableText(result: EventStudyResult): string {
  const keys = result.metadata.by;
  const header = [
    'window', ...keys, 'n', 'complete', 'pending', 'gap', 'invalid', 'n/a', 'mean%', 'median%', 'hit', 'mfe%', 'mae%',
    'ctrl_n', 'ctrl_ok', 'ctrl%', 'diff%', 'ci_low', 'ci_high',
  ];
  const line = (row: EventStudyRow) => [
    row.window,
    ...keys.map((key) => String(row[key] ?? '')),
    String(row.n), String(row.n_complete), String(row.missing_pending), String(row.missing_gap),
    String(row.missing_invalid_price), String(row.missing_not_applicable),
    fixed(row.mean_return_pct), fixed(row.median_return_pct), fixed(row.hit_rate), fixed(row.median_mfe_pct), fixed(row.median_mae_pct),
    String(row.control_n), String(row.control_n_complete), fixed(row.control_mean_return_pct),
    fixed(row.difference_pct), fixed(row.ci_low_pct), fixed(row.ci_high_pct),
  ];
  const cells = [header, ...result.rows.map(line)];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const text = cells.map((row) => row.map((cell, i) => (i <= keys.length ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
  const { metadata } = result;
  return [
    `Event vs control study: ${metadata.releaseIds.length} releases (${metadata.selection === 'current' ? 'newest revision of each day' : 'exact IDs'}), ${metadata.rows} rows, calculation versions ${metadata.calculationVersions.join(', ')}.`,
    'Returns in percentage points over complete outcomes only; pending/gap/invalid/n/a outcomes are missing, not zero.',
    `Controls signed by each event's direction; CI: ${metadata.bootstrap.confidence * 100}% percentile bootstrap over ${metadata.bootstrap.method === 'row' ? 'rows' : 'UTC days'}, ${metadata.bootstrap.samples} samples, seed ${metadata.bootstrap.seed}.`,
    '',
    ...text,
    '',
  ].join('\n');
}

export const studyCommand: Command = {
  name: 'study',
  summary: 'Run the event-vs-control study on the local catalog (table, charts, report).',
  usage: 'study event [--lock FILE] [--window 1h[,4h...]] [--by event_kind,direction[,symbol]] [--bootstrap day|row] [--out DIR]',
  options: {
    lock: { type: 'string' },
    window: { type: 'string', default: '1h' },
    by: { type: 'string', default: 'event_kind,direction' },
    bootstrap: { type: 'string', default: 'day' },
    out: { type: 'string' },
  },
  allowPositionals: true,
  async run(context, args) {
    const [study, ...extra] = args.positionals;
    if (study !== 'event' || extra.length > 0) throw new UsageError(analysisMessages.unknownStudy(study), { option: 'study' });
    const windows = String(args.values.window).split(',').map((w) => w.trim()).filter(Boolean);
    const releases = typeof args.values.lock === 'string' ? await lockedReleaseIds(path.resolve(context.cwd, args.values.lock)) : undefined;

    // The catalog is read, never written: open it read-only so a study cannot change it.
    const file = path.join(context.home, 'catalog.duckdb');
    if (!existsSync(file)) throw new NotFoundError(analysisMessages.noCatalog(context.home));
    const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    context.onExit(() => {
      connection.closeSync();
      instance.closeSync();
    });

    const by = String(args.values.by).split(',').map((key) => key.trim()).filter(Boolean);
    const method = String(args.values.bootstrap) as BootstrapMethod;
    const result = await eventStudy(connection, { windows, by, bootstrap: { method }, ...(releases ? { releases } : {}) });
    if (context.json) context.stdout.write(`${JSON.stringify(result.rows)}\n`);
    else context.stdout.write(studyTableText(result));
    if (typeof args.values.out === 'string') {
      const files = await writeStudyReport(result, path.resolve(context.cwd, args.values.out));
      (context.json ? context.stderr : context.stdout).write(`${analysisMessages.reportWritten(files.html)}\n`);
    }
  },
};
