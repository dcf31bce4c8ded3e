// Vitest global setup: every test run gets one temporary folder (TMPDIR for the workers and every process they
// start), removed when the run ends, so the hundreds of mkdtemp folders the tests make never pile up in /tmp.

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where a test may keep evidence that must outlive the run (e.g. a corrupted catalog): the machine's own tmp. */
export const EVIDENCE_DIR_ENV = 'RDW_TEST_EVIDENCE_DIR';

export default function setup(): () => void {
  const machineTmp = os.tmpdir();
  const runDir = mkdtempSync(path.join(machineTmp, 'rdw-test-run-'));
  process.env[EVIDENCE_DIR_ENV] ??= machineTmp;
  process.env.TMPDIR = runDir;
  return () => {
    process.env.TMPDIR = machineTmp;
    // RDW_KEEP_TEST_TMP=1 keeps the run's folders to look into after a failure.
    if (process.env.RDW_KEEP_TEST_TMP !== '1') rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
  };
}
