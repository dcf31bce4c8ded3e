// The study script beside notebook 02 opens its lock with Study.open, so it goes through the one lock
// verification (verifyStudyLock): a stored file that differs from the lock ends it with exit 3, one sentence, no numbers.

import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ContentStore } from '../../src/catalog/index.js';
import { readLock } from '../../src/locks/index.js';
import { REPO_ROOT } from '../support/jupyter.js';
import { createTempHome } from '../support/temp-home.js';
import { flipByte } from '../support/lock-fixture.js';

const SCRIPT = path.join('notebooks', '02-event-study.ts');

/** Runs the script with RDW_HOME = `home` on the embedded mock; never rejects for a non-zero exit. */
function runScript(home: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, RDW_HOME: home };
  for (const name of ['RDW_BASE_URL', 'RDW_SITE_URL', 'RDW_API_KEY']) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', SCRIPT], { cwd: REPO_ROOT, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number((error as { code?: unknown }).code), stdout, stderr });
    });
  });
}

describe('notebooks/02-event-study.ts against its lock', () => {
  it('a tampered or deleted stored parquet of a locked release is exit 3 naming release, file and store path, with no numbers', async () => {
    const lock = await readLock(path.join(REPO_ROOT, 'notebooks', '02-event-study.lock.json'));
    const temp = await createTempHome('rdw-study-script-lock-');
    try {
      const first = await runScript(temp.home);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/\bdiff +95% CI/);

      const release = lock.releases[lock.releases.length - 1]!;
      const sha = release.files.parquet!.sha256;
      const stored = path.join(temp.home, ...ContentStore.relativePath(sha).split('/'));
      for (const tamper of [() => flipByte(stored, 128), () => rm(stored, { force: true })]) {
        await tamper();
        const run = await runScript(temp.home);
        expect(run.code).toBe(3);
        expect(run.stdout).toBe('');
        const lines = run.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(release.id);
        expect(lines[0]).toContain('parquet');
        expect(lines[0]).toContain(ContentStore.relativePath(sha));
      }
    } finally {
      await temp.remove();
    }
  }, 180_000);
});
