// The study script beside notebook 02 runs without Jupyter and prints exactly the header and numbers
// that the committed notebook printed (the library must not need a kernel).

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/jupyter.js';
import { printedText, readNotebook } from '../support/notebook-outputs.js';
import { createTempHome } from '../support/temp-home.js';

const run = promisify(execFile);

describe('notebooks/02-event-study.ts', () => {
  it('prints the same study header and numbers as the committed notebook 02', async () => {
    const committed = printedText(await readNotebook(path.join(REPO_ROOT, 'notebooks', '02-event-study.ipynb')));
    const cell = (id: string) => committed.find((entry) => entry.id === id)?.text ?? '';
    const header = cell('study-header');
    const numbers = cell('study-numbers');
    // The committed cells must hold the numbers, or the comparison below would prove nothing.
    expect(header).toMatch(/^Study lock v1 .*\n.*release_id/);
    expect(numbers).toMatch(/\bdiff +95% CI[\s\S]*\n1h +breakout +down +\d+\/\d+ /);

    const temp = await createTempHome('rdw-study-script-');
    try {
      const env = { ...process.env, RDW_HOME: temp.home };
      for (const name of ['RDW_BASE_URL', 'RDW_SITE_URL', 'RDW_API_KEY']) delete env[name];
      const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', path.join('notebooks', '02-event-study.ts')], {
        cwd: REPO_ROOT,
        env,
        maxBuffer: 16 * 1024 * 1024,
      });
      expect(stdout).toBe(header + numbers);
      expect(stderr).not.toMatch(/rdw_sk_[A-Za-z0-9]{8,}/);
    } finally {
      await temp.remove();
    }
  }, 180_000);
});
