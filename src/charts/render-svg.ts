// Headless SVG rendering of a Vega-Lite spec. vega and vega-lite are ESM-only with a top-level await, so
// they are imported inside the function, never statically (STACK.md: tslab require()s our graph).

import type { VegaLiteSpec } from './vega-lite-spec.js';

/**
 * Vega-Lite warns on every layered facet with independent scales (each window on its own scale) that it
 * assumes the layers share one data source. Ours do (one `data.values`), so that warning says nothing and
 * would land on the CLI's stderr; every other message goes through.
 */
const SAME_SOURCE_WARNING = 'Detected faceted independent scales that union domain of the same fields from different source';

/** Compiles a Vega-Lite spec and renders it to SVG text without a browser or canvas. */
export async function renderSvg(spec: VegaLiteSpec): Promise<string> {
  const vegaLite = await import('vega-lite');
  const vega = await import('vega');
  const base = vega.logger(vega.Warn);
  const logger = {
    level: (...args: [number]) => base.level(...args),
    error: (...args: unknown[]) => base.error(...args),
    warn: (...args: unknown[]) => (String(args[0]).startsWith(SAME_SOURCE_WARNING) ? logger : (base.warn(...args), logger)),
    info: (...args: unknown[]) => base.info(...args),
    debug: (...args: unknown[]) => base.debug(...args),
  };
  const compiled = vegaLite.compile(spec as never, { logger: logger as never }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
