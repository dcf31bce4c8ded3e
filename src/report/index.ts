// src/report: presenting an analysis result — the study report folder (CSV, JSON, SVG charts, one
// self-contained HTML page) and the chart data of study rows. Imports analysis, charts, contract.

export { STUDY_REPORT_FILES, writeStudyReport, studyCsv } from './write-study-report.js';
export { groupLabel, effectInterval, effectPoints, missingnessBars } from './study-chart-data.js';
export { durationText, modelInterval, modelScoreChartOptions, modelSplitText } from './model-chart-data.js';
export { MODEL_REPORT_FILES, modelCsv, modelReportMetadata, writeModelReport } from './write-model-report.js';
export type { ModelReportMetadata } from './write-model-report.js';
