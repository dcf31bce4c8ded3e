// Writes an event study to a folder: table (CSV, JSON), charts (SVG) and a self-contained report.html
// that fetches nothing when opened (inline SVG; no script, stylesheet or image URLs).

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { analysisMessages, eventStudyColumns, type EventStudyResult } from '../analysis/index.js';
import { escapeHtml, formatCsv, writeFolderStaged } from '../base/index.js';
import { STATUS_COLORS, coverageHeatmapSpec, effectChartSpec, missingnessChartSpec, renderSvg } from '../charts/index.js';
import { OUTCOME_STATUSES } from '../contract/index.js';
import { effectInterval, effectPoints, missingnessBars } from './study-chart-data.js';
import { STUDY_TABLE_CSS, studyResultsTableHtml } from './study-results-table-html.js';

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
 * Writes the study report into `outDir` (created when missing; files of the same names are replaced). The
 * files are written to a staging folder and moved in once all are complete (writeFolderStaged): a failure
 * (a full disk) leaves `outDir` as it was, never a cut-short report.html.
 * @returns absolute paths of the files written, by kind.
 */
export async function writeStudyReport(result: EventStudyResult, outDir: string): Promise<Record<keyof typeof STUDY_REPORT_FILES, string>> {
  const dir = path.resolve(outDir);
  const files = Object.fromEntries(
    Object.entries(STUDY_REPORT_FILES).map(([kind, name]) => [kind, path.join(dir, name)]),
  ) as Record<keyof typeof STUDY_REPORT_FILES, string>;

  // 1. the charts
  const effect = await renderSvg(effectChartSpec(effectPoints(result.rows), { interval: effectInterval(result.metadata) }));
  const missingness = await renderSvg(missingnessChartSpec(missingnessBars(result.rows), { statuses: OUTCOME_STATUSES }));
  const coverage = await renderSvg(coverageHeatmapSpec(result.coverage));
  // 2. the table, exactly as computed, and one self-contained page
  const contents: Record<keyof typeof STUDY_REPORT_FILES, string> = {
    csv: studyCsv(result),
    json: `${JSON.stringify({ metadata: result.metadata, rows: result.rows, coverage: result.coverage }, null, 2)}\n`,
    effectSvg: effect,
    missingnessSvg: missingness,
    coverageSvg: coverage,
    html: studyHtml(result, { effect, missingness, coverage }),
  };
  await writeFolderStaged(dir, async (staging) => {
    for (const [kind, name] of Object.entries(STUDY_REPORT_FILES)) await writeFile(path.join(staging, name), contents[kind as keyof typeof STUDY_REPORT_FILES]);
  });
  return files;
}

/** CSV of the study rows: header first, columns in table order, empty for null (never 0). */
export function studyCsv(result: Pick<EventStudyResult, 'rows' | 'metadata'>): string {
  const columns = eventStudyColumns(result.metadata.by).map((column) => column.name);
  return formatCsv(columns, result.rows as unknown as Record<string, unknown>[]);
}

/** The missing statuses, each with its chart colour (the same swatch as in the charts' legends). */
function statusKeyHtml(): string {
  const missing = OUTCOME_STATUSES.filter((status) => status !== 'complete');
  return missing.map((status) => `<span class="status"><i style="background:${STATUS_COLORS[status]}"></i>${escapeHtml(status)}</span>`).join(', ');
}

function studyHtml(result: EventStudyResult, svgs: { effect: string; missingness: string; coverage: string }): string {
  const { metadata } = result;
  const ids = metadata.releaseIds.map((id) => `<li><code>${escapeHtml(id)}</code></li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rdw event study</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem;max-width:75rem}
figure{margin:1.5rem 0}${STUDY_TABLE_CSS}
.status i{display:inline-block;width:.7em;height:.7em;margin-right:.25em;border-radius:2px}
</style></head><body>
<h1>Event vs control study</h1>
<p>Windows: ${escapeHtml(metadata.windows.join(', '))}; groups: ${escapeHtml(metadata.by.join(' × '))};
rows read: ${metadata.rows}; selection: ${metadata.selection === 'current' ? 'newest revision of each day' : 'exact release IDs'}.</p>
<p>Calculation versions: ${escapeHtml(metadata.calculationVersions.join(', '))}.
Interval and p-value: ${escapeHtml(metadata.intervalDescription)}${metadata.intervalCalibration === null ? '' : ` ${escapeHtml(metadata.intervalCalibration)}`}</p>${
    metadata.intervalGaps.length === 0
      ? ''
      : `\n<p>Where there is no interval: ${metadata.intervalGaps.map((gap) => escapeHtml(analysisMessages.noIntervalAt(gap))).join('<br>\n')}</p>`
  }
<p>Many groups: ${
    metadata.multipleComparisons.tested === 0
      ? escapeHtml(analysisMessages.noGroupTested())
      : `${metadata.multipleComparisons.significant} of ${metadata.multipleComparisons.tested} have q_value &le; ${metadata.multipleComparisons.level}.`
  }
${escapeHtml(metadata.multipleComparisons.description)}</p>
<p>Returns are direction-adjusted, in percentage points, over <em>complete</em> outcomes only; ${statusKeyHtml()}
outcomes are missing (counted in the missing_* columns), never zero.
${escapeHtml(metadata.controlComparison)}</p>
<h2>Results</h2>
<p>Results first: n and n_complete, difference_pct with its ${Number((metadata.interval.confidence * 100).toPrecision(10))}% CI (ci_low_pct, ci_high_pct) in
percentage points, q_value and significant_adjusted (rows in bold); then the detail (scroll the table sideways).</p>
${studyResultsTableHtml(result)}
<h2>Effect against controls</h2><figure>${svgs.effect}</figure>
<h2>Missing outcomes by status</h2><figure>${svgs.missingness}</figure>
<h2>Coverage</h2><figure>${svgs.coverage}</figure>
<details><summary>${metadata.releaseIds.length} release IDs</summary><ul>${ids}</ul></details>
</body></html>
`;
}
