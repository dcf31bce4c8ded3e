// Runs every notebook headlessly with Jupyter and the tslab kernel, and checks that it reproduces the
// committed outputs, that no cell errs, and that no output holds a key. Under CI=true a missing Jupyter
// fails the suite (it never skips there).

import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  JUPYTER_PACKAGES,
  REPO_ROOT,
  executeNotebook,
  findJupyterPython,
  installTslabKernel,
  type TslabKernelFolder,
} from '../support/jupyter.js';
import { allOutputText, cellErrors, joinedText, printedText, readNotebook } from '../support/notebook-outputs.js';

const VEGA_LITE_MIME = 'application/vnd.vegalite.v5+json';

const NOTEBOOK_DIR = path.join(REPO_ROOT, 'notebooks');
const notebooks = (await readdir(NOTEBOOK_DIR)).filter((name) => name.endsWith('.ipynb')).sort();
const python = await findJupyterPython();
const required = process.env.CI === 'true' || process.env.RDW_REQUIRE_JUPYTER === '1';
const KEY_PATTERN = /rdw_sk_[A-Za-z0-9]{8,}/;

describe('notebooks', () => {
  it('finds Jupyter, or is allowed to go without it outside CI', () => {
    if (!python && required) {
      throw new Error(`Jupyter is missing: install the Debian packages ${JUPYTER_PACKAGES} (apt-get update first).`);
    }
    expect(notebooks).toEqual(expect.arrayContaining(['01-quickstart.ipynb', '02-event-study.ipynb', '03-research-snapshots.ipynb', '04-modelling.ipynb']));
  });

  it.each(notebooks)('%s is committed executed, with cell ids, a kernelspec and charts as SVG + Vega-Lite', async (name) => {
    const committed = await readNotebook(path.join(NOTEBOOK_DIR, name));
    expect(committed.metadata.kernelspec).toMatchObject({ name: 'tslab' });
    const ids = committed.cells.map((cell) => cell.id);
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const code = committed.cells.filter((cell) => cell.cell_type === 'code');
    // nbclient stamps each cell it ran (tslab leaves execution_count null): every code cell must carry it.
    expect(code.filter((cell) => cell.metadata?.execution === undefined).map((cell) => cell.id)).toEqual([]);
    const bundles = code.flatMap((cell) => cell.outputs ?? []).filter((output) => output.data && VEGA_LITE_MIME in output.data);
    expect(bundles.length).toBeGreaterThan(0);
    for (const bundle of bundles) expect(joinedText(bundle.data!['image/svg+xml'])).toMatch(/^<svg/);
  });

  describe.runIf(python !== undefined)('executed with the tslab kernel', () => {
    let kernel: TslabKernelFolder | undefined;
    let outputDir = '';
    beforeAll(async () => {
      kernel = await installTslabKernel(python!);
      outputDir = await mkdtemp(path.join(os.tmpdir(), 'rdw-notebooks-'));
    }, 120_000);
    afterAll(() => kernel?.dispose());

    it.each(notebooks)('%s runs without errors, prints what is committed, and shows no key', async (name) => {
      const committed = await readNotebook(path.join(NOTEBOOK_DIR, name));
      const home = await mkdtemp(path.join(os.tmpdir(), 'rdw-notebook-home-'));
      const env = { ...process.env, RDW_HOME: home, RDW_BASE_URL: undefined, RDW_SITE_URL: undefined, RDW_API_KEY: undefined };
      const executedPath = await executeNotebook(python!, path.join(NOTEBOOK_DIR, name), { jupyterPath: kernel!.dataDir, outputDir, env });
      const executed = await readNotebook(executedPath);
      expect(cellErrors(executed)).toEqual([]);
      expect(allOutputText(executed)).not.toMatch(KEY_PATTERN);
      expect(allOutputText(committed)).not.toMatch(KEY_PATTERN);
      expect(printedText(executed)).toEqual(printedText(committed));
    }, 300_000);
  });
});
