// The plain-object shape of the Vega-Lite specs this layer builds (kept local: vega-lite is ESM-only with
// a top-level await and must not enter the static import graph; see STACK.md).

/** A Vega-Lite v5 top-level spec as plain JSON. */
export interface VegaLiteSpec {
  $schema: string;
  [key: string]: unknown;
}

/** The schema URL written into every spec (front ends pick the renderer from it). */
export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';
