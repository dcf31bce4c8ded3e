// src/notebook: helpers that turn rdw results into rich notebook output (HTML tables, SVG + Vega-Lite
// charts, the study header, a snapshot history's chart). Display only: they neither fetch nor query tables.

export { htmlTable, textTable, formatValue } from './html-table.js';
export type { HtmlTableOptions } from './html-table.js';
export { chartBundle, VEGA_LITE_MIME } from './chart-bundle.js';
export type { ChartBundle } from './chart-bundle.js';
export { displayBundle, displayChart } from './display-bundle.js';
export { studyHeaderRows, studyHeaderText, studyHeaderHtml, studySummaryLine } from './study-header.js';
export type { StudyHeaderRow } from './study-header.js';
export { studyTableColumns, studyTableText, studyTableHtml } from './study-table-text.js';
export type { StudyTableOptions } from './study-table-cells.js';
export { snapshotHistoryPoints } from './snapshot-history-points.js';
export type { SnapshotHistoryPoint } from './snapshot-history-points.js';
export { snapshotHistorySpec } from './snapshot-history-chart.js';
export type { SnapshotHistoryChartOptions } from './snapshot-history-chart.js';
export { NotInKernelError, NotebookOptionError } from './notebook-errors.js';
export { notebookMessages } from './messages.js';
export { missingnessRows, MISSINGNESS_COLUMNS } from './missingness-table.js';
export type { MissingnessRow } from './missingness-table.js';
