// Vitest global setup: every test run gets one temporary folder (TMPDIR for the workers and every process they
// start), removed when the run ends, so the hundreds of mkdtemp folders the tests make never pile up in /tmp.

import os from 'node:os';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';

/** Where a test may keep evidence that must outlive the run (e.g. a corrupted catalog): the machine's own tmp. */
export const EVIDENCE_DIR_ENV = 'RDW_TEST_EVIDENCE_DIR';

export default async function setup(): Promise<() => Promise<void>> {
  const machineTmp = os.tmpdir();
  const runDir = await makeTemporaryFolder('rdw-test-run-', { parent: machineTmp });
  process.env[EVIDENCE_DIR_ENV] ??= machineTmp;
  process.env.TMPDIR = runDir;
  return async () => {
    process.env.TMPDIR = machineTmp;
    // RDW_KEEP_TEST_TMP=1 keeps the run's folders to look into after a failure.
    if (process.env.RDW_KEEP_TEST_TMP !== '1') await removeTree(runDir, { maxRetries: 3 });
  };
}
