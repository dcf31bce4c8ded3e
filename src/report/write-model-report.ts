// Writes a model study to a folder: the model table (CSV, JSON with what was studied), the score chart (SVG)
// and a self-contained model-report.html that fetches nothing when opened (inline SVG, no script).

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { modelEvaluationColumns, modelEvaluationTable, type ModelEvaluationRow, type ModelStudyResult } from '../modelling/index.js';
import { escapeHtml, formatCsv, writeFolderStaged } from '../base/index.js';
import { modelScoreChartSpec, renderSvg } from '../charts/index.js';
import { modelInterval, modelScoreChartOptions, modelSplitText } from './model-chart-data.js';
import { reportMessages } from './messages.js';
import { STUDY_TABLE_CSS, resultCellHtml } from './study-results-table-html.js';

/** File names written by writeModelReport, relative to its folder. */
export const MODEL_REPORT_FILES = {
  csv: 'model-evaluation.csv',
  json: 'model-evaluation.json',
  scoresSvg: 'model-scores.svg',
  html: 'model-report.html',
} as const;

/** What a model study studied, as model-evaluation.json records it beside the rows. */
export interface ModelReportMetadata {
  readonly window: string;
  readonly target: string;
  readonly sampleType: string;
  readonly split: { readonly method: string; readonly folds: number; readonly windowSeconds: number; readonly embargoSeconds: number };
  readonly model: string;
  readonly baseline: string;
  readonly features: readonly string[];
  /** The intervals' method, level and block length, with the sentence that says it. */
  readonly interval: ModelStudyResult['evaluation']['interval'];
  /** Which rows show no interval and why (absent when every row has one). */
  readonly intervalNote?: string;
  /** Rows read; eligible rows split into folds; the rest by reason (only reasons that occurred). */
  readonly rows: { readonly total: number; readonly used: number; readonly leftOut: Readonly<Record<string, number>> };
  readonly releaseIds: readonly string[];
}

/** The metadata of a model study (model-evaluation.json's `metadata`). */
export function modelReportMetadata(result: ModelStudyResult): ModelReportMetadata {
  const { splits, evaluation } = result;
  return {
    window: result.window,
    target: result.target,
    sampleType: result.sampleType,
    split: { method: splits.method, folds: splits.splits.length, windowSeconds: splits.windowSeconds, embargoSeconds: splits.embargoSeconds },
    model: evaluation.model,
    baseline: evaluation.baseline,
    features: evaluation.features,
    interval: evaluation.interval,
    ...(evaluation.intervalNote === undefined ? {} : { intervalNote: evaluation.intervalNote }),
    rows: { total: splits.total, used: splits.rows.sampleTime.length, leftOut: Object.fromEntries(Object.entries(splits.leftOut).filter(([, n]) => n > 0)) },
    releaseIds: splits.releaseIds,
  };
}

/** CSV of the model table: header first, columns in modelEvaluationColumns order, empty for null (never 0). */
export function modelCsv(rows: readonly ModelEvaluationRow[]): string {
  return formatCsv(
    modelEvaluationColumns.map((column) => column.name),
    rows as unknown as Record<string, unknown>[],
  );
}

/**
 * Writes the model report into `outDir` (created when missing; files of the same names are replaced). The
 * files are written to a staging folder and moved in once all are complete (writeFolderStaged): a failure
 * (a full disk) leaves `outDir` as it was.
 * @returns absolute paths of the files written, by kind.
 */
export async function writeModelReport(result: ModelStudyResult, outDir: string): Promise<Record<keyof typeof MODEL_REPORT_FILES, string>> {
  const dir = path.resolve(outDir);
  const files = Object.fromEntries(Object.entries(MODEL_REPORT_FILES).map(([kind, name]) => [kind, path.join(dir, name)])) as Record<
    keyof typeof MODEL_REPORT_FILES,
    string
  >;
  // 1. the table, exactly as computed, and what was studied
  const rows = modelEvaluationTable(result);
  const metadata = modelReportMetadata(result);
  // 2. the chart
  const svg = await renderSvg(modelScoreChartSpec(rows, modelScoreChartOptions(result)));
  // 3. one self-contained page
  const contents: Record<keyof typeof MODEL_REPORT_FILES, string> = {
    csv: modelCsv(rows),
    json: `${JSON.stringify({ metadata, rows }, null, 2)}\n`,
    scoresSvg: svg,
    html: modelHtml(result, metadata, rows, svg),
  };
  await writeFolderStaged(dir, async (staging) => {
    for (const [kind, name] of Object.entries(MODEL_REPORT_FILES)) await writeFile(path.join(staging, name), contents[kind as keyof typeof MODEL_REPORT_FILES]);
  });
  return files;
}

function modelHtml(result: ModelStudyResult, metadata: ModelReportMetadata, rows: readonly ModelEvaluationRow[], svg: string): string {
  const head = modelEvaluationColumns.map((column) => `<th>${escapeHtml(column.name)}</th>`).join('');
  const body = rows
    .map((row) => `<tr>${modelEvaluationColumns.map((column) => `<td>${resultCellHtml(row[column.name])}</td>`).join('')}</tr>`)
    .join('\n');
  const leftOut = Object.entries(metadata.rows.leftOut).map(([reason, n]) => `${escapeHtml(reason)} ${n}`).join(', ') || 'none';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rdw model study</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem;max-width:75rem}
figure{margin:1.5rem 0}${STUDY_TABLE_CSS}
</style></head><body>
<h1>Model study: ${escapeHtml(result.target)} at ${escapeHtml(result.window)}</h1>
<p>Split: ${escapeHtml(modelSplitText(result.split))}. Model: ${escapeHtml(metadata.model)} against ${escapeHtml(metadata.baseline)}
on ${escapeHtml(metadata.features.join(', '))}; ${escapeHtml(metadata.sampleType)} rows.</p>
<p>Rows read: ${metadata.rows.total}; used (point-in-time, complete outcome at ${escapeHtml(result.window)}): ${metadata.rows.used};
left out: ${leftOut}. Releases: ${metadata.releaseIds.length}.</p>
<p>Intervals: ${escapeHtml(modelInterval(result.evaluation))}. ${escapeHtml(reportMessages.modelIntervalsExplained(result.evaluation.pooled.overFolds !== undefined))} ${escapeHtml(result.evaluation.interval.calibration)}</p>${
    metadata.intervalNote === undefined ? '' : `\n<p class="interval-note">${escapeHtml(metadata.intervalNote)}</p>`
  }
<figure>${svg}</figure>
<div class="table-box"><table class="results"><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table></div>
</body></html>
`;
}
