// A chart as a Jupyter MIME bundle: inline SVG for every front end, plus the Vega-Lite spec for those that
// render it (JupyterLab, VS Code). Use with tslab.display.raw / .svg.

export const VEGA_LITE_MIME = 'application/vnd.vegalite.v5+json';

export interface ChartBundle {
  'image/svg+xml': string;
  [VEGA_LITE_MIME]: object;
}

export function chartBundle(spec: object, svg: string): ChartBundle {
  return { 'image/svg+xml': svg, [VEGA_LITE_MIME]: spec };
}
