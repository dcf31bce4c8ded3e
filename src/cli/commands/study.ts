// `rdw study event [--lock FILE] [--window 1h] [--out DIR]`: the event-vs-control study over the local
// catalog, printed as a table (or rows as JSON), optionally written as a self-contained report.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { openCatalog } from '../../catalog/index.js';
import { analysisMessages, eventStudy, resolveEventStudyOptions, writeStudyReport } from '../../analysis/index.js';
import type { BootstrapMethod, EventStudyOptions, EventStudyResult } from '../../analysis/index.js';
import { studyTableText } from '../../notebook/index.js';
import { NotFoundError, UsageError } from '../../contract/index.js';
import { readLock, verifyStudyLock } from '../../study/index.js';
import type { Command } from '../command.js';

/** The study as printed by the CLI: what the numbers mean, then the one study table of src/notebook. */
export function studyReportText(result: EventStudyResult): string {
  const { metadata } = result;
  return [
    `Event vs control study: ${metadata.releaseIds.length} releases (${metadata.selection === 'current' ? 'newest revision of each day' : 'exact IDs'}), ${metadata.rows} rows, calculation versions ${metadata.calculationVersions.join(', ')}.`,
    ...(metadata.calculationVersionMix.length > 1 ? [pooledVersionsText(result)] : []),
    'Returns in percentage points over complete outcomes only; missing_* counts are outcomes left out (never counted as zero).',
    `Controls signed by each event's direction; CI: ${metadata.bootstrap.confidence * 100}% percentile bootstrap over ${metadata.bootstrap.method === 'row' ? 'rows' : 'UTC days'}, ${metadata.bootstrap.samples} samples, seed ${metadata.bootstrap.seed}.`,
    '',
    studyTableText(result),
    '',
  ].join('\n');
}

/** The one line saying which calculation versions a study pooled (only after --allow-mixed-versions). */
function pooledVersionsText(result: EventStudyResult): string {
  const mix = result.metadata.calculationVersionMix
    .map((entry) => `${entry.calculation_version ?? '(none)'} ${entry.rows} rows in ${entry.releases} release(s)`)
    .join('; ');
  return `Calculation versions pooled (--allow-mixed-versions): ${mix}.`;
}

export const studyCommand: Command = {
  name: 'study',
  summary: 'Run the event-vs-control study on the local catalog (table, charts, report).',
  usage: 'study event [--lock FILE] [--window 1h[,4h...]] [--by event_kind,direction[,symbol]] [--bootstrap day|row] [--allow-mixed-versions] [--out DIR]',
  options: {
    lock: { type: 'string' },
    window: { type: 'string', default: '1h' },
    by: { type: 'string', default: 'event_kind,direction' },
    bootstrap: { type: 'string', default: 'day' },
    out: { type: 'string' },
    'allow-mixed-versions': { type: 'boolean', default: false },
  },
  allowPositionals: true,
  async run(context, args) {
    const [study, ...extra] = args.positionals;
    if (study !== 'event' || extra.length > 0) throw new UsageError(analysisMessages.unknownStudy(study), { option: 'study' });
    const windows = String(args.values.window).split(',').map((w) => w.trim()).filter(Boolean);
    const by = String(args.values.by).split(',').map((key) => key.trim()).filter(Boolean);
    const method = String(args.values.bootstrap) as BootstrapMethod;
    const allowMixedCalculationVersions = args.values['allow-mixed-versions'] === true;
    const options: EventStudyOptions = { windows, by, bootstrap: { method }, allowMixedCalculationVersions };
    resolveEventStudyOptions(options); // bad options are exit 2 before the lock and the catalog are touched

    // A lock is read first (malformed or newer: exit 2 before anything opens).
    const lock = typeof args.values.lock === 'string' ? await readLock(path.resolve(context.cwd, args.values.lock)) : undefined;

    // The catalog is read, never written: open it read-only so a study cannot change it.
    if (!existsSync(path.join(context.home, 'catalog.duckdb'))) throw new NotFoundError(analysisMessages.noCatalog(context.home));
    const catalog = await openCatalog(context.home, { readOnly: true });
    context.onExit(() => catalog.close());
    // With a lock: the one verification path (catalog records and stored bytes vs the lock) before any
    // number is computed; a difference is exit 3 naming release and file. Only exactly the locked IDs are studied.
    const releases = lock === undefined ? undefined : (await verifyStudyLock(catalog, lock)).releases.map((release) => release.id);

    const result = await catalog.exclusive((connection) => eventStudy(connection, { ...options, ...(releases ? { releases } : {}) }));
    if (context.json) {
      context.stdout.write(`${JSON.stringify(result.rows)}\n`);
      // The rows array has no room for it: the pooled versions go to stderr, as the report path does.
      if (result.metadata.calculationVersionMix.length > 1) context.stderr.write(`${pooledVersionsText(result)}\n`);
    } else context.stdout.write(studyReportText(result));
    if (typeof args.values.out === 'string') {
      const files = await writeStudyReport(result, path.resolve(context.cwd, args.values.out));
      (context.json ? context.stderr : context.stdout).write(`${analysisMessages.reportWritten(files.html)}\n`);
    }
  },
};
