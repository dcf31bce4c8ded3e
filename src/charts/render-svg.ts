// Headless SVG rendering of a Vega-Lite spec. vega and vega-lite are ESM-only with a top-level await, so
// they are imported inside the function, never statically (STACK.md: tslab require()s our graph).

import type { VegaLiteSpec } from './vega-lite-spec.js';

/** Compiles a Vega-Lite spec and renders it to SVG text without a browser or canvas. */
export async function renderSvg(spec: VegaLiteSpec): Promise<string> {
  const vegaLite = await import('vega-lite');
  const vega = await import('vega');
  const compiled = vegaLite.compile(spec as never).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
