// Shows several MIME types as ONE notebook output (e.g. SVG + Vega-Lite), so each front end picks the
// richest it renders: JupyterLab and VS Code the interactive Vega-Lite chart, others the inline SVG.

import { createRequire } from 'node:module';
import { renderSvg, type VegaLiteSpec } from '../charts/index.js';
import { chartBundle } from './chart-bundle.js';
import { NotInKernelError } from './notebook-errors.js';
import { notebookMessages } from './messages.js';

type DisplayWriter = (message: { data: Record<string, unknown>; metadata: object; transient: object }, update: boolean) => void;

/**
 * The display writer of the running tslab kernel. tslab 1.0's public `display.raw` sends one MIME type
 * per output; the writer behind it (the same module instance, found in the shared CommonJS module cache,
 * so no second copy of tslab is ever loaded) sends a whole bundle.
 */
function kernelWriter(): DisplayWriter {
  const cache = createRequire(import.meta.url).cache;
  for (const [id, loaded] of Object.entries(cache)) {
    if (!/[\\/]tslab[\\/]dist[\\/]jupyter\.js$/.test(id)) continue;
    const writer = (loaded?.exports as { lastWriteDisplayData?: unknown } | undefined)?.lastWriteDisplayData;
    if (typeof writer === 'function') return writer as DisplayWriter;
  }
  throw new NotInKernelError(notebookMessages.notInKernel());
}

/**
 * Displays `bundle` (MIME type -> content; JSON types as objects) as one output of the current cell.
 * @throws NotInKernelError outside a tslab kernel.
 */
export function displayBundle(bundle: object): void {
  kernelWriter()({ data: { ...(bundle as Record<string, unknown>) }, metadata: {}, transient: {} }, false);
}

/**
 * Renders `spec` to SVG headlessly and displays it as one output holding the SVG and the Vega-Lite spec.
 * Resolves once shown; the SVG text is not returned, so the cell prints nothing.
 * @throws NotInKernelError outside a tslab kernel.
 */
export async function displayChart(spec: VegaLiteSpec): Promise<void> {
  displayBundle(chartBundle(spec, await renderSvg(spec)));
}
