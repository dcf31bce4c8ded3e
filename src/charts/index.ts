// src/charts: Vega-Lite spec builders (pure functions of plain arrays) and headless SVG rendering.

export { VEGA_LITE_SCHEMA } from './vega-lite-spec.js';
export type { VegaLiteSpec } from './vega-lite-spec.js';
export { effectChartSpec } from './effect-chart-spec.js';
export type { EffectPoint, EffectChartOptions } from './effect-chart-spec.js';
export { missingnessChartSpec } from './missingness-chart-spec.js';
export type { MissingnessBar, MissingnessChartOptions } from './missingness-chart-spec.js';
export { STATUS_COLORS, statusColorScale } from './status-colors.js';
export { windowOrder } from './window-order.js';
export { coverageHeatmapSpec } from './coverage-heatmap-spec.js';
export { modelScoreChartSpec } from './model-score-chart-spec.js';
export type { ModelScoreChartOptions, ModelScorePoint } from './model-score-chart-spec.js';
export type { CoverageHeatmapCell } from './coverage-heatmap-spec.js';
export { renderSvg } from './render-svg.js';
