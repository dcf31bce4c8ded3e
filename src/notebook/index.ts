// src/notebook: helpers that turn rdw results into rich notebook output (HTML tables, SVG charts).

export { htmlTable, textTable, formatValue, escapeHtml } from './html-table.js';
export type { HtmlTableOptions } from './html-table.js';
export { chartBundle, VEGA_LITE_MIME } from './chart-bundle.js';
export type { ChartBundle } from './chart-bundle.js';
