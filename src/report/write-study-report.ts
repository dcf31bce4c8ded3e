// Writes an event study to a folder: table (CSV, JSON), charts (SVG) and a self-contained report.html
// that fetches nothing when opened (inline SVG; no script, stylesheet or image URLs).

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eventStudyColumns, type EventStudyResult } from '../analysis/index.js';
import { escapeHtml, formatCsv } from '../base/index.js';
import { coverageHeatmapSpec, effectChartSpec, missingnessChartSpec, renderSvg } from '../charts/index.js';
import { OUTCOME_STATUSES } from '../contract/index.js';
import { effectPoints, missingnessBars } from './study-chart-data.js';

/** File names written by writeStudyReport, relative to its folder. */
export const STUDY_REPORT_FILES = {
  csv: 'event-study.csv',
  json: 'event-study.json',
  effectSvg: 'effect.svg',
  missingnessSvg: 'missingness.svg',
  coverageSvg: 'coverage.svg',
  html: 'report.html',
} as const;

/**
 * Writes the study report into `outDir` (created when missing; files are overwritten).
 * @returns absolute paths of the files written, by kind.
 */
export async function writeStudyReport(result: EventStudyResult, outDir: string): Promise<Record<keyof typeof STUDY_REPORT_FILES, string>> {
  const dir = path.resolve(outDir);
  await mkdir(dir, { recursive: true });
  const files = Object.fromEntries(
    Object.entries(STUDY_REPORT_FILES).map(([kind, name]) => [kind, path.join(dir, name)]),
  ) as Record<keyof typeof STUDY_REPORT_FILES, string>;

  // 1. the table, exactly as computed
  await writeFile(files.csv, studyCsv(result));
  await writeFile(files.json, `${JSON.stringify({ metadata: result.metadata, rows: result.rows, coverage: result.coverage }, null, 2)}\n`);

  // 2. the charts
  const effect = await renderSvg(effectChartSpec(effectPoints(result.rows)));
  const missingness = await renderSvg(missingnessChartSpec(missingnessBars(result.rows), { statuses: OUTCOME_STATUSES }));
  const coverage = await renderSvg(coverageHeatmapSpec(result.coverage));
  await writeFile(files.effectSvg, effect);
  await writeFile(files.missingnessSvg, missingness);
  await writeFile(files.coverageSvg, coverage);

  // 3. one self-contained page
  await writeFile(files.html, studyHtml(result, { effect, missingness, coverage }));
  return files;
}

/** CSV of the study rows: header first, columns in table order, empty for null (never 0). */
export function studyCsv(result: Pick<EventStudyResult, 'rows' | 'metadata'>): string {
  const columns = eventStudyColumns(result.metadata.by).map((column) => column.name);
  return formatCsv(columns, result.rows as unknown as Record<string, unknown>[]);
}

function formatCell(value: unknown): string {
  if (value === null || value === undefined) return '<span class="na">n/a</span>';
  if (typeof value === 'number' && !Number.isInteger(value)) return value.toFixed(4);
  return escapeHtml(String(value));
}

function studyHtml(result: EventStudyResult, svgs: { effect: string; missingness: string; coverage: string }): string {
  const { metadata } = result;
  const columns = eventStudyColumns(metadata.by).map((column) => column.name);
  const header = columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = result.rows
    .map((row) => `<tr>${columns.map((c) => `<td>${formatCell((row as Record<string, unknown>)[c])}</td>`).join('')}</tr>`)
    .join('\n');
  const ids = metadata.releaseIds.map((id) => `<li><code>${escapeHtml(id)}</code></li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rdw event study</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem;max-width:75rem}
table{border-collapse:collapse;font-size:.8rem}th,td{border:1px solid #ccc;padding:.2rem .4rem;text-align:right}
th{background:#f4f4f4}.na{color:#999}figure{margin:1.5rem 0}
</style></head><body>
<h1>Event vs control study</h1>
<p>Windows: ${escapeHtml(metadata.windows.join(', '))}; groups: ${escapeHtml(metadata.by.join(' × '))};
rows read: ${metadata.rows}; selection: ${metadata.selection === 'current' ? 'newest revision of each day' : 'exact release IDs'}.</p>
<p>Calculation versions: ${escapeHtml(metadata.calculationVersions.join(', '))}.
Bootstrap: ${metadata.bootstrap.samples} samples, seed ${metadata.bootstrap.seed}, ${metadata.bootstrap.confidence * 100}% percentile interval.
${escapeHtml(metadata.bootstrapDescription)}</p>
<p>Returns are direction-adjusted, in percentage points, over <em>complete</em> outcomes only; pending, gap,
invalid_price and not_applicable outcomes are missing (counted in the missing_* columns), never zero.
${escapeHtml(metadata.controlComparison)}</p>
<h2>Results</h2>
<table><thead><tr>${header}</tr></thead><tbody>
${body}
</tbody></table>
<h2>Effect against controls</h2><figure>${svgs.effect}</figure>
<h2>Missing outcomes by status</h2><figure>${svgs.missingness}</figure>
<h2>Coverage</h2><figure>${svgs.coverage}</figure>
<details><summary>${metadata.releaseIds.length} release IDs</summary><ul>${ids}</ul></details>
</body></html>
`;
}
